/**
 * The parts of `react-native` that <HubEmbedView> uses, standing in for the native views in Node. Each
 * behaves as React Native documents it: a Modal renders its children only while visible and hears the
 * Android back button first (onRequestClose); Platform.OS is the platform the harness plays; BackHandler asks its listeners newest first; Linking
 * records the URLs it is asked to open.
 */
import { createElement, type ReactNode } from 'react';

type Props = { children?: ReactNode; [key: string]: unknown };

export const View = (props: Props) => createElement('View', props);
export const Text = (props: Props) => createElement('Text', props);
export const Pressable = (props: Props) => createElement('Pressable', props);
export const Button = (props: Props & { title: string; onPress?: () => void }) => createElement('Button', props);
/** Lays its children out of the keyboard's way; `behavior` is what the test reads. */
export const KeyboardAvoidingView = (props: Props & { behavior?: 'height' | 'position' | 'padding' }) =>
  createElement('KeyboardAvoidingView', props);
/** The platform the harness plays (set by the react-native-webview stand-in's useBrowser). */
export const Platform = { OS: 'android' as 'android' | 'ios' };
export const Modal = (props: Props & { visible?: boolean }) =>
  createElement('Modal', { ...props, children: undefined }, props.visible ? props.children : null);

export const StyleSheet = { create: <T>(styles: T): T => styles };

/** The system's color scheme, as `Appearance` would give it; tests set `colorScheme.current`. */
export const colorScheme = { current: 'light' as 'light' | 'dark' | null };
export const useColorScheme = () => colorScheme.current;

export const Linking = {
  opened: [] as string[],
  async openURL(url: string): Promise<void> {
    Linking.opened.push(url);
  },
};

type BackListener = () => boolean | null | undefined;
const backListeners: BackListener[] = [];

export const BackHandler = {
  addEventListener(_event: 'hardwareBackPress', listener: BackListener) {
    backListeners.push(listener);
    return { remove: () => void backListeners.splice(backListeners.indexOf(listener), 1) };
  },
  /** The Android back button, as the system delivers it: to a visible Modal, else to the listeners. */
  press(visibleModal?: { onRequestClose?: () => void }): boolean {
    if (visibleModal) {
      visibleModal.onRequestClose?.();
      return true;
    }
    return [...backListeners].reverse().some((listener) => listener() === true);
  },
};

/**
 * The part of react-native-safe-area-context that <HubEmbedView>'s form Modal uses: its native
 * SafeAreaView, which pads its content by the device's insets on the `edges` it is given. In Node there
 * is no device; the element records its props for the tests to read.
 */
import { createElement, type ReactNode } from 'react';

export const SafeAreaView = (props: { children?: ReactNode; edges?: readonly string[]; [key: string]: unknown }) =>
  createElement('SafeAreaView', props);

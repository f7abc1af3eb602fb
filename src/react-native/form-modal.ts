/**
 * The default native form of <HubEmbedView>: a full-screen Modal with a close control and a second
 * WebView on the form URL. It keeps to the device's safe areas and out of the keyboard's way, speaks the
 * widget's language, relays what the form page posts, and keeps the form's own origin (and the app's
 * payment origins) inside. Whether a form may open here at all is decided before (form-checks.ts).
 */
import { createElement } from 'react';
import { KeyboardAvoidingView, Modal, Platform, Pressable, StyleSheet, Text } from 'react-native';
import type { StyleProp, ViewStyle } from 'react-native';
import { SafeAreaView } from 'react-native-safe-area-context';
import { WebView } from 'react-native-webview';
import type { WebViewMessageEvent, WebViewProps } from 'react-native-webview';
import type {
  ShouldStartLoadRequest,
  WebViewHttpErrorEvent,
  WebViewOpenWindowEvent,
} from 'react-native-webview/lib/WebViewTypes.js';
import { localeFor, type HubLocale } from '../core/locale.js';
import type { HostKernel } from '../host/types.js';
import { originOf } from '../host/navigation.js';
import { refusesToken } from '../core/form-report.js';
import { formRelayScript, readFormMessage } from './form-checks.js';

/** A form the Modal shows. */
export interface OpenForm {
  url: string;
  shortCode: string;
  /**
   * Marks the messages the form WebView's relay posts, so that no other frame of the form can; new for each
   * load of a form, whose WebView it keys.
   */
  relayNonce: string;
  /** Loaded again with a new token after its page refused the first: a second refusal keeps its message. */
  renewed?: boolean;
}

/** How the user closed the Modal: its close control, or Android back (onRequestClose). */
export type ModalCloseReason = 'button' | 'back';

export interface FormModalProps {
  form: OpenForm | undefined;
  /**
   * The close control's label. Default: the widget's word for "Close" in its language, as the page's
   * `widget.ready` said it (`locale`), else in the device's.
   */
  closeLabel?: string;
  /** The language the widget page shows, from its `widget.ready`; undefined before it said (or an older page). */
  widgetLocale?: string;
  backgroundColor: string;
  style?: StyleProp<ViewStyle>;
  /** Origins besides the form's own that may load in the Modal's top frame (payment pages, `return_url`). */
  formOrigins: readonly string[];
  webViewProps?: Omit<WebViewProps, 'source' | 'originWhitelist' | 'onShouldStartLoadWithRequest'>;
  /** The host kernel's decision for URLs that do not stay: sub-frames load or not, others go out. */
  decideNavigation: HostKernel['decideNavigation'];
  onOpenWindow: (event: WebViewOpenWindowEvent) => void;
  onClose: (reason: ModalCloseReason) => void;
  onMessage: (data: unknown) => void;
  /** The form page refused the token in its URL: its load report said so, or its load answered 401. */
  onRefused: () => void;
  onRejected: (reason: string) => void;
}

/** The device's language, as Hermes' Intl gives it (React Native has no navigator.language). */
const deviceLocale = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().locale;
  } catch {
    return undefined;
  }
};

/**
 * The word the widget's own form dialog shows on its close control (hub-form-frame.strings.ts and the
 * tables of src/components/locales/; a test keeps them equal).
 */
export const CLOSE_LABELS: Record<HubLocale, string> = {
  en: 'Close',
  'zh-CN': '关闭',
  'zh-TW': '關閉',
  ja: '閉じる',
  ko: '닫기',
};

/** The close label for the widget's (else the device's) language. */
export const defaultCloseLabel = (widgetLocale: string | undefined) =>
  CLOSE_LABELS[localeFor(widgetLocale ?? deviceLocale())];

export function FormModal(props: FormModalProps) {
  const { form, backgroundColor } = props;
  const formOrigin = form && originOf(form.url);
  return createElement(
    Modal,
    {
      visible: !!form,
      animationType: 'slide',
      presentationStyle: 'fullScreen',
      // Android 15 draws apps edge to edge: the safe area below then keeps the bars clear.
      statusBarTranslucent: true,
      navigationBarTranslucent: true,
      onRequestClose: () => props.onClose('back'),
    },
    form &&
      createElement(
        // The native safe-area view (not the provider's hook): a Modal is a window of its own, whose insets
        // a provider at the app's root does not know.
        SafeAreaView,
        { edges: ['top', 'right', 'bottom', 'left'], style: [styles.fill, { backgroundColor }, props.style] },
        createElement(
          KeyboardAvoidingView,
          // iOS does not resize a Modal for the keyboard; Android resizes its window, and the view then finds
          // no overlap to avoid.
          { behavior: Platform.OS === 'ios' ? 'padding' : 'height', style: styles.fill },
          createElement(
            Pressable,
            {
              accessibilityRole: 'button',
              onPress: () => props.onClose('button'),
              style: styles.close,
              hitSlop: 8,
            },
            createElement(Text, null, props.closeLabel ?? defaultCloseLabel(props.widgetLocale)),
          ),
          createElement(WebView, {
            // The form's own loading state until it paints (react-native-webview's indicator, or the app's
            // renderLoading in formWebViewProps).
            startInLoadingState: true,
            ...props.webViewProps,
            // A form loaded again (a new token) is a new WebView, as each form in the page is a new iframe.
            key: form.relayNonce,
            source: { uri: form.url },
            style: [styles.fill, { backgroundColor }, props.webViewProps?.style],
            originWhitelist: ['*'],
            // What the form page posts to its parent (itself, at the top of this WebView) reaches
            // onFormMessage as it does from the page's dialog; the relay's nonce keeps other frames out.
            injectedJavaScriptBeforeContentLoaded: formRelayScript(form.relayNonce),
            injectedJavaScriptBeforeContentLoadedForMainFrameOnly: true,
            onMessage: (event: WebViewMessageEvent) => {
              const data = readFormMessage(event.nativeEvent.data, form.relayNonce, formOrigin);
              if (data === undefined) props.onRejected('form message');
              else {
                props.onMessage(data.value);
                if (refusesToken(data.value)) props.onRefused();
              }
              props.webViewProps?.onMessage?.(event);
            },
            // A form site that refuses the token answers the form's load with 401 (a page at the top of its
            // WebView has no parent to post its load report to).
            onHttpError: (event: WebViewHttpErrorEvent) => {
              const { statusCode, url } = event.nativeEvent;
              if (statusCode === 401 && originOf(url) === formOrigin) props.onRefused();
              props.webViewProps?.onHttpError?.(event);
            },
            // The form site loads inside; a link out of it (terms, a receipt) goes out; its own frames
            // (a payment provider's) load, and are never sent out.
            onShouldStartLoadWithRequest: (request: ShouldStartLoadRequest) => {
              if (request.isTopFrame === false)
                return props.decideNavigation(request.url, { isTopFrame: false }) === 'load';
              const origin = originOf(request.url);
              const stays =
                request.url === 'about:blank' ||
                origin === formOrigin ||
                (origin !== undefined && props.formOrigins.includes(origin));
              if (!stays) props.decideNavigation(request.url, { newWindow: true });
              return stays;
            },
            setSupportMultipleWindows: true,
            onOpenWindow: props.onOpenWindow,
          }),
        ),
      ),
  );
}

const styles = StyleSheet.create({
  fill: { flex: 1 },
  close: { alignSelf: 'flex-end', padding: 16 },
});

/**
 * <HubEmbedView> on the web (react-native-web, Expo's web target): no WebView and no bridge, the real
 * `<hub-embed>` element in the app's own page, registered as `hub-embed/define` registers it. The props
 * are the native view's (view-props.ts), read the same way: `getToken` becomes the element's token
 * provider, `tags` is the controlled selection, `openForm` decides first; the element's events reach the
 * same callbacks with the same params (web-events.ts). What only a WebView has (its props, the native
 * Modal, `allowedOrigins`) is not there to set. The package's `browser` condition picks this file.
 */
import '../define.js';
import {
  createElement,
  forwardRef,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type ForwardedRef,
} from 'react';
import { StyleSheet, View } from 'react-native';
import type { HubEmbed } from '../components/hub-embed/hub-embed.js';
import { ELEMENT_EVENTS, viewEventOf } from './web-events.js';
import { useTagsWarning } from './use-tags-warning.js';
import { tellApp, type HubEmbedViewEvent, type HubEmbedViewHandle, type HubEmbedViewProps } from './view-props.js';
import { NO_WEB_SETTINGS, SET_TAGS_WITH_TAGS_PROP, refreshTold, sameTags, type WidgetError } from './view-rules.js';

function HubEmbedViewWithRef(props: HubEmbedViewProps, ref: ForwardedRef<HubEmbedViewHandle>) {
  const element = useRef<HubEmbed>(null);
  // The newest props, read by the listeners and the token provider, which are made once per element.
  const latest = useRef(props);
  latest.current = props;
  /** Bumped by ref.reload(): a new element, a new load, the selection selected again. */
  const [load, setLoad] = useState(0);
  /** The selection without a `tags` prop: the app's (setTags) or the user's, kept for a reload. */
  const selection = useRef(props.tags);
  /** Bumped when the user changed the selection, so a controlled `tags` the app kept is selected again. */
  const [pageTagsChanged, setPageTagsChanged] = useState(0);
  /** The refresh() calls under way, each told of a widget.error that comes before it settles. */
  const refreshing = useRef(new Set<(error: WidgetError) => void>());
  const { web } = props;

  const tell = (event: HubEmbedViewEvent) => tellApp(latest.current, event);

  // A setting that is missing is said as the element says its own: onWidgetError, kind `config`.
  useEffect(() => {
    if (!web) tell({ name: 'widget.error', params: { kind: 'config', message: NO_WEB_SETTINGS } });
  }, [!web]);

  // Before the element's first update (a microtask after it connects): it never loads without its settings.
  useLayoutEffect(() => {
    const hub = element.current;
    if (!hub || !web) return;
    hub.baseUrl = web.baseUrl;
    hub.formUrl = web.formUrl;
    hub.tokenEndpoint = web.tokenEndpoint ?? '';
  }, [load, web?.baseUrl, web?.formUrl, web?.tokenEndpoint]);

  // The token provider and the form hook read the newest props at each call; they come and go with them.
  const hasToken = Boolean(props.getToken);
  const hasOpenForm = Boolean(props.openForm);
  useLayoutEffect(() => {
    const hub = element.current;
    if (!hub) return;
    hub.tokenProvider = hasToken
      ? async ({ reason, previous }) => {
          const { getToken } = latest.current;
          if (!getToken) throw new Error('<HubEmbedView>: getToken was taken away');
          return getToken({ reason, previous });
        }
      : undefined;
    hub.openFormHook = hasOpenForm
      ? async (request) => {
          const handled = (await latest.current.openForm?.(request)) === true;
          if (handled) tell({ name: 'form.opened', params: { shortCode: request.shortCode, handledBy: 'host' } });
          return handled;
        }
      : undefined;
  }, [load, hasToken, hasOpenForm, !web]);

  // The element's events, as the native view's app hears them: listened to before its first update, whose
  // setup error would come before a passive effect ran.
  useLayoutEffect(() => {
    const hub = element.current;
    if (!hub) return;
    let openForm: string | undefined;
    const listeners = ELEMENT_EVENTS.map((name) => {
      const listener = (event: Event) => {
        const detail = (event as CustomEvent).detail as never;
        if (name === 'hub-form-open') openForm = (detail as { shortCode: string }).shortCode;
        const told = viewEventOf(name, detail, hub, openForm);
        if (name === 'hub-form-close') openForm = undefined;
        if (!told) return;
        if (told.name === 'tags.changed' && latest.current.tags === undefined) selection.current = told.params.tags;
        if (told.name === 'widget.error') for (const hear of refreshing.current) hear(told.params);
        tell(told);
        // After the app's onTagsChanged (and the render it asked for): a controlled `tags` the app did not
        // change to the user's selection is selected again, as a controlled input keeps its value.
        if (told.name === 'tags.changed') setPageTagsChanged((count) => count + 1);
      };
      hub.addEventListener(name, listener);
      return [name, listener] as const;
    });
    return () => {
      for (const [name, listener] of listeners) hub.removeEventListener(name, listener);
    };
  }, [load, !web]);

  // The selection: the `tags` prop when there is one, else the last one kept (a reload finds it again).
  const tagKey = props.tags && JSON.stringify(props.tags);
  useLayoutEffect(() => {
    const hub = element.current;
    const tags = latest.current.tags ?? selection.current;
    if (hub && tags && !sameTags(hub.tags, tags)) hub.tags = [...tags];
  }, [load, tagKey, pageTagsChanged, !web]);

  useTagsWarning(props);

  useImperativeHandle(ref, () => {
    const hub = () => {
      if (!element.current) throw new TypeError(NO_WEB_SETTINGS);
      return element.current;
    };
    return {
      refresh: async () => {
        const widget = hub();
        return refreshTold(() => widget.refresh(), refreshing.current);
      },
      // What throws here rejects the promise, as the native view's requests do.
      setTags: (tags) =>
        new Promise<void>((resolve) => {
          if (latest.current.tags !== undefined) throw new TypeError(SET_TAGS_WITH_TAGS_PROP);
          const widget = hub();
          selection.current = [...tags];
          widget.tags = [...tags];
          resolve();
        }),
      closeForm: () => Promise.resolve(element.current?.closeForm() ?? false),
      reload: () => setLoad((count) => count + 1),
    };
  }, []);

  return createElement(
    View,
    { style: [styles.fill, props.style] },
    web && createElement('hub-embed', { key: load, ref: element, style: { display: 'block', flex: 1, minHeight: 0 } }),
  );
}

const styles = StyleSheet.create({ fill: { flex: 1 } });

/** The widget as the `<hub-embed>` element in the app's page, with the native view's props and events. */
export const HubEmbedView = forwardRef(HubEmbedViewWithRef);
HubEmbedView.displayName = 'HubEmbedView';

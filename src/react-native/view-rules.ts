/**
 * The rules <HubEmbedView> decides by, as pure functions (its hook, use-hub-embed-view.ts, applies them):
 * how often it reloads by itself, when the app hears of a silent page, which origins load inside, when a
 * page's form holds Android back, and what the view says about them.
 */
import { BridgeError } from '../bridge/protocol.js';
import { NO_BRIDGE_BUILD, NO_BRIDGE_MS } from '../core/bridge-wait.js';

/** How often a minute the view reloads by itself after its content process died. */
export const RELOADS_PER_MINUTE = 3;

/**
 * How long after the widget page loaded the view waits for its hello before it tells the app (onWidgetError,
 * `no-bridge`). A page with the WebView bundle says hello within the bundle's own waits (a late marker: 2 s).
 */
export const NO_HELLO_MS = NO_BRIDGE_MS;

/** The development warning for a `tags` prop without `onTagsChanged`. */
export const TAGS_WITHOUT_ON_TAGS_CHANGED =
  '<HubEmbedView>: `tags` without `onTagsChanged` keeps the selection at `tags`, so each chip the user taps is ' +
  'undone. Pass onTagsChanged and set tags from it, or leave tags out and call ref.setTags.';

/** Why ref.setTags rejects while a `tags` prop is the selection: the prop would undo it at the next change. */
export const SET_TAGS_WITH_TAGS_PROP =
  'setTags: this <HubEmbedView> has a tags prop, which is the selection: change the prop';

/** What the app hears when a view on the web has no `web` prop: it has nothing to load the widget from. */
export const NO_WEB_SETTINGS =
  '<HubEmbedView> on the web renders <hub-embed> in your page and loads no widget page: pass ' +
  "web={{ baseUrl, formUrl }} (the widget page's base-url and form-url).";

/** React Native's development flag (`__DEV__`, false in release builds); false where there is none. */
export function isDevelopment(): boolean {
  return (globalThis as { __DEV__?: unknown }).__DEV__ === true;
}

/** What the app hears when the widget page loaded and never spoke to the view. */
export function noHelloMessage(url: string): string {
  return (
    `The widget page ${url} loaded but said nothing to the app in ${NO_HELLO_MS / 1000} s. Check that it loads ` +
    'the WebView build (hub-embed-webview.iife.js or hub-embed/webview), not the plain one (hub-embed.iife.js, ' +
    `hub-embed/define), which shows "${NO_BRIDGE_BUILD}"; that its <hub-embed> has bridge="auto"; and its ` +
    'console for errors (a script that throws before the widget connects).'
  );
}

/** Whether two selections are the same tags in the same order (or both absent). */
export const sameTags = (one: readonly string[] | undefined, other: readonly string[] | undefined) =>
  JSON.stringify(one) === JSON.stringify(other);

/** The origins whose pages load inside the view: the widget page's and the app's others, each once. */
export const allowedOrigins = (widgetOrigin: string | undefined, others: readonly string[] = []) => [
  ...new Set([widgetOrigin, ...others].filter((origin): origin is string => !!origin)),
];

/**
 * The reloads of the last minute with one more at `now`, or undefined when RELOADS_PER_MINUTE were made
 * already: a page that kills its content process on every load must not reload for ever.
 */
export function reloadsWithOneMore(recent: readonly number[], now: number): number[] | undefined {
  const lastMinute = recent.filter((at) => now - at < 60_000);
  return lastMinute.length >= RELOADS_PER_MINUTE ? undefined : [...lastMinute, now];
}

/** Whether Android back closes a form of the page, and whether a page's form.opened was believed since the last touch. */
export interface PageFormState {
  pageForm: boolean;
  believed: boolean;
}

/**
 * After a form.opened: a form the host opened never holds back; one the page says it opened does, once
 * per user gesture (`believed` is cleared by a touch), so a page that sends form.opened in a loop cannot
 * keep Android back for itself.
 */
export function afterFormOpened({ pageForm, believed }: PageFormState, handledBy: 'host' | 'page'): PageFormState {
  const byPage = handledBy === 'page';
  return { pageForm: !byPage || !believed ? byPage : pageForm, believed: believed || byPage };
}

/** A widget.error as the page reports it. */
export interface WidgetError {
  kind: string;
  message: string;
}

/**
 * ref.refresh(): the page answers widget.refresh once its load is over, failed or not; a failure reaches
 * the host as widget.error before that answer, on the same channel. So the refresh fails with the first
 * widget.error told to `listeners` while it runs.
 */
export async function refreshTold(refresh: () => Promise<unknown>, listeners: Set<(error: WidgetError) => void>) {
  let failed: WidgetError | undefined;
  const hear = (error: WidgetError) => (failed ??= error);
  listeners.add(hear);
  try {
    await refresh();
  } finally {
    listeners.delete(hear);
  }
  if (failed)
    throw new BridgeError('E_INTERNAL', `refresh: the widget could not load (${failed.kind}): ${failed.message}`);
}

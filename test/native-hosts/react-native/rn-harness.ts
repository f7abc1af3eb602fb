// <HubEmbedView> (hub-embed/react-native) rendered with React in Node, its WebViews played against the
// real WebView bundle in Chromium by the react-native-webview stand-in beside this file, on the simulator.
// Only the native views are stood in: the component, the host kernel, the page bundle, the simulator and
// the browser are the real ones. Shared by the test/native-hosts/react-native*.test.ts files.
import { register } from 'node:module';
import { createElement, createRef } from 'react';
import type { Browser } from 'playwright-core';
import { pageHtml, serverToken, waitFor, widget, type Harness } from '../../e2e/harness.js';

register('./aliases.mjs', import.meta.url);
// The page drives state changes from its own events, as a device does, not from inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
// react-test-renderer is deprecated in favour of testing on a device; as a Node renderer it still is what we need.
const consoleError = console.error;
console.error = (...args: unknown[]) => {
  if (!String(args[0]).includes('react-test-renderer is deprecated')) consoleError(...args);
};
const { create } = await import('react-test-renderer');
export const { HubEmbedView } = await import('../../../src/react-native/index.js');
export const { RELOADS_PER_MINUTE } = await import('../../../src/react-native/hub-embed-view.js');
export const { CLOSE_LABELS } = await import('../../../src/react-native/form-modal.js');
export const { BackHandler, Linking } = await import('./react-native.js');
export const { useBrowser, viewsSettled, webViews } = await import('./react-native-webview.js');
export type Handle = import('../../../src/react-native/index.js').HubEmbedViewHandle;
export type ViewProps = import('../../../src/react-native/index.js').HubEmbedViewProps;

/**
 * The page an app ships for its WebView, served at /rn.html: the WebView bundle and one
 * `<hub-embed bridge="auto">` with no token endpoint (the app's getToken supplies tokens). Returns its URL.
 */
export function addWidgetPage(h: Harness): string {
  return h.addPage(
    '/rn.html',
    pageHtml(
      '<script src="/dist/hub-embed-webview.iife.js"></script>',
      widget(h, { bridge: 'auto', 'token-endpoint': '' }),
    ),
  );
}

/** Lets React commit what was scheduled (a concurrent root renders on the next tasks). */
export const settle = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

export interface MountOptions {
  platform?: 'android' | 'ios';
  lateInjection?: boolean;
  /** The widget page; default the harness's /rn.html. */
  uri: string;
  /** More props, or replacements of the recorded ones. */
  props?: Partial<ViewProps>;
}

/** Renders <HubEmbedView> on the widget page and records everything it tells the app. */
export async function mount(h: Harness, browser: Browser, options: MountOptions) {
  useBrowser(browser, options);
  Linking.opened.length = 0;
  const seen = {
    tokens: 0,
    tokenRequests: [] as unknown[],
    ready: [] as unknown[],
    rejected: [] as string[],
    external: [] as string[],
    selected: [] as unknown[],
    opened: [] as unknown[],
    closed: [] as Array<{ shortCode: string; reason: string }>,
    messages: [] as unknown[],
    errors: [] as Array<{ kind: string; message: string }>,
  };
  const ref = createRef<Handle>();
  let props: ViewProps & { ref: typeof ref } = {
    ref,
    source: { uri: options.uri },
    getToken: async (request) => {
      seen.tokens++;
      seen.tokenRequests.push(request);
      return { access_token: await serverToken(h), expires_in: 600 };
    },
    onReady: (params) => seen.ready.push(params),
    onTableSelected: (params) => seen.selected.push(params),
    onFormOpened: (params) => seen.opened.push(params),
    onFormClosed: (params) => seen.closed.push(params),
    onFormMessage: (params) => seen.messages.push(params),
    onWidgetError: (params) => seen.errors.push(params),
    onRejected: (reason) => seen.rejected.push(reason),
    openExternal: (url) => void seen.external.push(url),
    ...options.props,
  };
  const renderer = create(createElement(HubEmbedView, props));
  /** Renders the view again with these props changed, as an app's state change after mount would. */
  const rerender = async (changed: Partial<ViewProps>) => {
    props = { ...props, ...changed };
    renderer.update(createElement(HubEmbedView, props));
    await settle();
  };
  await waitFor(
    () => webViews.length,
    (n) => n > 0,
    'the WebView to mount',
  );
  const view = webViews[0]!;
  await view.loaded;
  const unmount = async () => {
    renderer.unmount();
    await settle();
    await viewsSettled();
  };
  const modal = () => renderer.root.findByType('Modal' as never);
  const ready = (count = 1) =>
    waitFor(
      () => seen.ready.length,
      (n) => n >= count,
      'widget.ready',
    );
  return { seen, ref, renderer, rerender, view, page: view.page!, modal, unmount, ready };
}

export type MountedView = Awaited<ReturnType<typeof mount>>;

/** Mounts the view as mount() does, runs `body` with it, and unmounts it afterwards, also when `body` fails. */
export async function withView(
  h: Harness,
  browser: Browser,
  options: MountOptions,
  body: (view: MountedView) => Promise<void>,
): Promise<void> {
  const view = await mount(h, browser, options);
  try {
    await body(view);
  } finally {
    await view.unmount();
  }
}

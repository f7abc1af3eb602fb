// The WebView bridge behind <hub-embed bridge="auto">: one bridge per connected element, the host's
// token and form opening, the element's events mirrored to the host, and the host's requests.
// Importing it does nothing; enableBridge() plugs it in (src/webview/enable-bridge.ts does for the WebView build).

import { useHostLinker, type HostLinker } from '../components/hub-embed/host.js';
// Second: the imports' order is the bundle's order of modules, and the WebView file packs smallest with it here.
import { HOST_EVENTS } from '../components/hub-embed/host-events.js';
import { addTexts } from '../components/strings.js';
import { connectBridge } from '../bridge/bridge.js';
import { markerComing } from '../bridge/transports.js';
import type { PageToHostEvents } from '../bridge/methods.js';
import { HubError } from '../core/errors.js';
import { NO_BRIDGE_MS } from '../core/bridge-wait.js';

/**
 * How long a page without the host's marker waits for one. Flutter (runJavaScript on page start) and an
 * Android host without document-start scripts inject it after the page's first scripts; a page outside
 * any app pays this once before it loads from its token-endpoint.
 */
const LATE_MARKER_MS = 500;

/** What a page says when its app answered without getToken and it has no token source of its own. */
export const NO_HOST_TOKENS = 'The app gave no getToken, and no token-endpoint is set.';

const linkToHost: HostLinker = (element, allowedParentOrigins) => {
  /** The element could not load for want of a host: one that announces itself later hears why, and it loads. */
  let stranded: HubError | undefined;
  const bridge = connectBridge({
    allowedParentOrigins,
    widgetVersion: __HUB_EMBED_VERSION__,
    // A host's marker, or a react-native-webview object that promises one (its host may inject the marker
    // after the page's first scripts), says the host may come late, up to the ready timeout; without either
    // the page waits a short while for a late marker (and a native object found meanwhile waits for it too).
    waitForHostMs: '__HUB_EMBED_BRIDGE__' in window || markerComing(window) ? undefined : LATE_MARKER_MS,
    waitForMarker: true,
    onReady() {
      if (!stranded) return;
      bridge.emit('widget.error', { kind: stranded.kind, message: stranded.message });
      stranded = undefined;
      void element.refresh();
    },
  });
  /**
   * No host supplies tokens: the page's own source. Without one, a page no host answered is stranded; a
   * host that answered without getToken may be an app whose getToken is still coming (<HubEmbedView> loads
   * the page again when it comes), so the page shows its loading state as long as the app waits for a
   * hello, then says what to check (the host hears it as widget.error, in the same words).
   */
  const withoutHostTokens = () => {
    if (element.tokenProvider || element.tokenEndpoint) return undefined;
    if (bridge.host)
      return () =>
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new HubError('config', NO_HOST_TOKENS)), NO_BRIDGE_MS),
        );
    stranded = new HubError('no-host', 'No app host answered and no token-endpoint is set.');
    throw stranded;
  };
  bridge.handle('widget.refresh', () => element.refresh());
  bridge.handle('widget.setTags', ({ tags }) => element.setTags(tags));
  bridge.handle('form.close', () => ({ closed: element.closeForm() }));
  return {
    get ready() {
      return bridge.ready;
    },
    tokens: () =>
      bridge.hasCapability('auth.getToken')
        ? ({ reason, previous }) =>
            // The same reason and token as in web mode, so a token the service refused early is replaced,
            // not handed back from the host's cache (JSON leaves out a previous that is undefined). A
            // failure becomes TokenSource's 'token' HubError.
            bridge.request('auth.getToken', { reason, previous })
        : withoutHostTokens(),
    async openForm(request) {
      // A host that fails or declines leaves the form to the page.
      if (
        !bridge.hasCapability('form.open') ||
        !(await bridge.request('form.open', request).catch(() => null))?.handled
      )
        return false;
      bridge.emit('form.opened', { shortCode: request.shortCode, handledBy: 'host' });
      return true;
    },
    tell(type, detail) {
      const event = HOST_EVENTS[type]?.(detail, element);
      // Each pair of host-events.ts is typed there; emit's own signature cannot follow a union of pairs.
      if (event) bridge.emit(...(event as ['widget.ready', PageToHostEvents['widget.ready']]));
    },
    close: () => bridge.close(),
  };
};

/**
 * What the widget shows for the bridge's `no-host` error in English: only a page with the bridge can show
 * it. The other locales' tables (src/components/locales/) hold their own, and load with the later half.
 */
export const NO_HOST_TEXTS = {
  en: { 'no-host': 'Open this page in the app.' },
};

/**
 * Makes `<hub-embed bridge="auto">` use the WebView bridge, with the text of its `no-host` error.
 * `hub-embed/webview` calls it on import.
 */
export function enableBridge(): void {
  addTexts(NO_HOST_TEXTS);
  useHostLinker(linkToHost);
}

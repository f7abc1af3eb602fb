// The WebView bridge behind <hub-embed bridge="auto">: one bridge per connected element, the host's
// token and form opening, the element's events mirrored to the host, and the host's requests.
// Importing it does nothing; enableBridge() plugs it in (src/webview/enable-bridge.ts does for the WebView build).

import { useHostLinker, type HostEventDetails, type HostLinker } from '../components/hub-embed/host.js';
import type { HubEventName } from '../components/events.js';
import { connectBridge } from '../bridge/bridge.js';
import type { PageToHostEvents } from '../bridge/methods.js';

/** The element's events and what the host hears for each. */
type HostEvent = { [Name in keyof PageToHostEvents]: [Name, PageToHostEvents[Name]] }[keyof PageToHostEvents];

/** Each element event (typed by src/components/events.ts) and the host event it becomes. */
const MIRROR: { [Name in HubEventName]?: (detail: HostEventDetails[Name]) => HostEvent } = {
  'hub-ready': () => ['widget.ready', { version: __HUB_EMBED_VERSION__ }],
  'hub-table-select': ({ table }) => ['table.selected', { shortCode: table.short_code, name: table.name }],
  'hub-form-open': ({ shortCode }) => ['form.opened', { shortCode, handledBy: 'page' }],
  'hub-form-close': ({ shortCode }) => ['form.closed', { shortCode }],
  'hub-error': ({ error }) => ['widget.error', { kind: error.kind, message: error.message }],
  'hub-form-message': ({ shortCode, data }) => ['form.message', { shortCode, data }],
};

const linkToHost: HostLinker = (element, allowedParentOrigins) => {
  const bridge = connectBridge({
    allowedParentOrigins,
    widgetVersion: __HUB_EMBED_VERSION__,
    // A plain web page must not wait: only a host's marker, or react-native-webview's object (whose host
    // may inject the marker after the page's first scripts), says that the host may come late.
    waitForHostMs:
      (window as { __HUB_EMBED_BRIDGE__?: unknown }).__HUB_EMBED_BRIDGE__ || 'ReactNativeWebView' in window
        ? undefined
        : 0,
  });
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
            // not handed back from the host's cache. A failure becomes TokenSource's 'token' HubError.
            bridge.request('auth.getToken', { reason, ...(previous && { previous }) })
        : undefined,
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
      // None for hub-tags-change: the bridge protocol has no event for it.
      const event = MIRROR[type]?.(detail);
      // Each pair in MIRROR is typed above; emit's own signature cannot follow a union of pairs.
      if (event) bridge.emit(...(event as ['widget.ready', PageToHostEvents['widget.ready']]));
    },
    close: () => bridge.close(),
  };
};

/** Makes `<hub-embed bridge="auto">` use the WebView bridge. `hub-embed/webview` calls it on import. */
export function enableBridge(): void {
  useHostLinker(linkToHost);
}

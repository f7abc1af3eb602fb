// A host whose channel is there from document start (webview_flutter's JavaScriptChannel, Android's
// JavascriptInterface without document-start scripts) and whose marker, with the nonce it requires, comes
// after the page's wait: its `evt bridge.ready` carries that nonce, and the page takes it and connects,
// while its first hello is unanswered or after it gave up. test/native-hosts/late-marker.test.ts runs the
// same with the built bundle in Chromium.
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_NS, BRIDGE_VERSION } from '../../src/bridge/index.js';
import { connect, flush, mockHost, useBridgeFixtures } from './helpers.js';

const NONCE = 'n-late-0123456789';
/** The page's wait for a marker when it found none at start (src/webview/host-link.ts). */
const LATE_MARKER_MS = 500;

/** A Flutter-style host: its channel at once, its marker (with the nonce) not yet. */
function channelWithoutMarker() {
  const host = mockHost('flutter', { nonce: NONCE });
  delete (window as { __HUB_EMBED_BRIDGE__?: unknown }).__HUB_EMBED_BRIDGE__;
  return host;
}

const injectMarker = () =>
  ((window as { __HUB_EMBED_BRIDGE__?: unknown }).__HUB_EMBED_BRIDGE__ = {
    transport: 'android',
    v: BRIDGE_VERSION,
    nonce: NONCE,
  });

describe('a late marker with a channel from document start', () => {
  useBridgeFixtures();
  const options = { allowedParentOrigins: [], waitForMarker: true, waitForHostMs: LATE_MARKER_MS };

  for (const markerAtMs of [1500, 2600])
    it(`the marker at ${markerAtMs / 1000} s and bridge.ready with its nonce: the page says hello with it and connects`, async () => {
      const host = channelWithoutMarker();
      const debug = vi.fn();
      const bridge = connect({ ...options, debug });
      await vi.advanceTimersByTimeAsync(markerAtMs);
      // Its hello without the nonce was dropped by the host.
      expect(host.sessions).toEqual([]);
      if (markerAtMs > 2000) expect(bridge.host).toBeNull();
      injectMarker();
      host.announce();
      await flush();
      expect(host.sessions).toEqual([bridge.sid]);
      expect(await bridge.ready).toMatchObject({ transport: 'android' });
      expect(bridge.host).toMatchObject({ transport: 'android' });
    });

  it('a bridge.ready with another nonce than the marker’s: its nonce is never taken, and the page stays unheard', async () => {
    const host = channelWithoutMarker();
    const bridge = connect(options);
    await vi.advanceTimersByTimeAsync(1500);
    injectMarker();
    (window as unknown as { __hubEmbedReceive(raw: string): void }).__hubEmbedReceive(
      JSON.stringify({
        ns: BRIDGE_NS,
        v: BRIDGE_VERSION,
        nonce: 'guess',
        sid: '',
        id: 'f',
        kind: 'evt',
        method: 'bridge.ready',
      }),
    );
    await flush();
    expect(host.posted.filter((raw) => String(raw).includes('"nonce":"guess"'))).toEqual([]);
    expect(host.sessions).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(bridge.host).toBeNull();
    // The host's own announcement still connects it.
    host.announce();
    await flush();
    expect(host.sessions).toEqual([bridge.sid]);
  });
});

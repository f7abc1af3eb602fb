import { afterEach, describe, expect, it, vi } from 'vitest';
// An app that imports the plain entry first and the WebView entry after it: the plain entry's
// "no bridge" notice is only a fallback and must not hide the bridge. (The other order is the setup of
// hub-embed-bridge.test.ts, which imports both as well.)
import '../../src/define.js';
import '../../src/webview.js';
import { createMockHost } from '../../src/host/index.js';
import { exchangeToken, loadedEmbed, setupHub } from './helpers.js';

afterEach(() => {
  delete (window as any).__hubEmbedReceive;
});

describe('<hub-embed> with both the plain and the WebView entry loaded', () => {
  it('plain entry first, WebView entry second: bridge="auto" uses the bridge and warns about nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const s = setupHub();
    const host = createMockHost('webkit', { handlers: { 'auth.getToken': () => exchangeToken(s.hub) } });
    try {
      await loadedEmbed(s, 'bridge="auto"', { tokenEndpoint: false });
      expect(host.messages.filter((m) => m.kind === 'req').map((m) => m.method)).toEqual([
        'bridge.hello',
        'auth.getToken',
      ]);
      expect(s.tokenCalls()).toBe(0);
      expect(warn.mock.calls.filter(([text]) => String(text).includes('WebView build'))).toEqual([]);
    } finally {
      host.remove();
    }
  });
});

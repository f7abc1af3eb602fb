import { describe, expect, it, vi } from 'vitest';
import { fixture, html } from '@open-wc/testing';
// The plain registration entry, as in dist/hub-embed.iife.js: no bridge is plugged in.
import '../../src/define.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import { setupHub } from './helpers.js';

describe('<hub-embed> without the WebView build', () => {
  it('bridge="auto" without the bridge plugged in runs as a web page and says once which build to use', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const s = setupHub();
    const post = vi.fn();
    vi.stubGlobal('ReactNativeWebView', { postMessage: post });
    const ready: Promise<unknown>[] = [];
    const els: HubEmbed[] = [];
    for (let i = 0; i < 2; i++) {
      const el = document.createElement('hub-embed') as HubEmbed;
      ready.push(new Promise((resolve) => el.addEventListener('hub-ready', resolve, { once: true })));
      el.setAttribute('bridge', 'auto');
      el.setAttribute('base-url', s.hub.baseUrl);
      el.setAttribute('form-url', s.hub.formUrl);
      el.setAttribute('token-endpoint', s.endpoint);
      els.push(el);
    }
    await fixture(html`<div>${els}</div>`);
    await Promise.all(ready);
    expect(s.tokenCalls()).toBe(1);
    expect(post).not.toHaveBeenCalled();
    const bridgeWarnings = warn.mock.calls.filter(([text]) => String(text).includes('hub-embed/webview'));
    expect(bridgeWarnings).toHaveLength(1);
  });
});

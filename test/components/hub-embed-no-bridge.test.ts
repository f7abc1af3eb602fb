import { describe, expect, it, vi } from 'vitest';
import { fixture, html } from '@open-wc/testing';
// The plain registration entry, as in dist/hub-embed.iife.js: no bridge is plugged in.
import '../../src/define.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import { loadFormOpener } from '../../src/components/hub-embed/form-opener-loader.js';
import { loadedEmbed, setupHub, until } from './helpers.js';

/** The form half loaded too, after which nothing more may be said. */
async function formHalfIn(): Promise<void> {
  await loadFormOpener();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const bridgeNotices = (warn: { mock: { calls: unknown[][] } }) =>
  warn.mock.calls.filter(([text]) => String(text).includes('bridge="auto" needs the WebView build'));

describe('<hub-embed> without the WebView build', () => {
  // Said once per page: the widget without bridge="auto" goes first, while nothing was said.
  it('a widget without bridge="auto" says nothing about the bridge', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await loadedEmbed(setupHub());
    await formHalfIn();
    expect(bridgeNotices(warn)).toEqual([]);
  });

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
    // Said as the widgets connect, once for the page.
    await until(() => bridgeNotices(warn).length > 0, 'the notice');
    await formHalfIn();
    expect(bridgeNotices(warn)).toHaveLength(1);
    expect(String(bridgeNotices(warn)[0]![0])).toContain('hub-embed-webview.iife.js');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/webview.js';
// Loaded after the WebView entry, the plain entry's "no bridge" notice must not replace the bridge.
import '../../src/define.js';
import { BridgeError } from '../../src/bridge/index.js';
import { PREPARE_AFTER_MS } from '../../src/components/hub-embed/form-preparer.js';
import { stringsFor } from '../../src/components/strings.js';
import { createMockHost, type MockHost, type MockHostOptions, type MockTransport } from '../../src/host/index.js';
import {
  cardsOf,
  clickCard,
  embed,
  exchangeToken,
  frameOf,
  gridOf,
  inChromium,
  part,
  ready,
  setupHub,
  until,
  type Setup,
} from './helpers.js';

/** In real Chromium the tests run in a frame whose parent origin the browser reports. */
const PARENT_ORIGIN: string = window.location.ancestorOrigins?.[0] ?? 'https://host.example';

const hosts: MockHost[] = [];

afterEach(() => {
  for (const host of hosts.splice(0)) host.remove();
  delete (window as any).__hubEmbedReceive;
  vi.useRealTimers();
});

/**
 * A host as the ready-made native ones are: with its marker (window.__HUB_EMBED_BRIDGE__) set before the
 * page's scripts, so the page shakes hands at once. A parent frame cannot set one in the page's window, and
 * `marker: false` gives a native host without: for those the page first waits LATE_MARKER_MS (500 ms).
 */
function host(transport: MockTransport, options?: MockHostOptions): MockHost {
  const made = createMockHost(transport, { marker: transport !== 'parent', ...options });
  hosts.push(made);
  return made;
}

/** A host that supplies real simulator tokens, as a native app gets them from its own server. */
const tokenHandlers = (s: Setup) => ({ 'auth.getToken': () => exchangeToken(s.hub) });

/** A <hub-embed> whose token comes from the host unless the test gives it a token-endpoint. */
const embedOnHost = (s: Setup, attrs: Record<string, string>) => embed(s, attrs, { tokenEndpoint: false });
const methods = (h: MockHost) => h.messages.filter((m) => m.kind === 'req').map((m) => m.method);
const events = (h: MockHost, method: string) => h.events.filter((e) => e.method === method).map((e) => e.params);

describe('<hub-embed bridge>', () => {
  it('default off: with a host present, no handshake and no host message; the token comes from token-endpoint', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { 'token-endpoint': s.endpoint });
    await ready(el);
    expect(el.bridge).toBe('off');
    expect(h.posted).toEqual([]);
    expect(s.tokenCalls()).toBe(1);
  });

  it('no host: bridge="auto" loads as a plain web page without waiting for the handshake timeout', async () => {
    const s = setupHub();
    // Fake clock: the widget must load while far less than the 2 s ready timeout has passed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const el = document.createElement('hub-embed');
    for (const [name, value] of [
      ['base-url', s.hub.baseUrl],
      ['form-url', s.hub.formUrl],
      ['token-endpoint', s.endpoint],
      ['bridge', 'auto'],
    ])
      el.setAttribute(name!, value!);
    document.body.append(el);
    let elapsed = 0;
    while (!(gridOf(el)?.tables.length > 0) && elapsed < 1000) {
      await vi.advanceTimersByTimeAsync(10);
      elapsed += 10;
    }
    el.remove();
    expect(gridOf(el).tables.length).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(2000);
    expect(s.tokenCalls()).toBe(1);
  });

  it('host offers auth.getToken: the token comes from the host, token-endpoint is not needed', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    expect(methods(h)).toEqual(['bridge.hello', 'auth.getToken']);
    expect(h.messages.find((m) => m.method === 'auth.getToken')!.params).toEqual({ reason: 'initial' });
    expect(s.tokenCalls()).toBe(0);
  });

  it('host without auth.getToken: the token comes from token-endpoint', async () => {
    const s = setupHub();
    const h = host('android', { handlers: { 'form.open': () => ({ handled: false }) } });
    const el = await embedOnHost(s, { bridge: 'auto', 'token-endpoint': s.endpoint });
    await ready(el);
    expect(methods(h)).toEqual(['bridge.hello']);
    expect(s.tokenCalls()).toBe(1);
  });

  it('host failing auth.getToken: a token error the page and the host both hear', async () => {
    const s = setupHub();
    const h = host('react-native', {
      handlers: {
        'auth.getToken': () => {
          throw new BridgeError('E_DENIED', 'signed out');
        },
      },
    });
    const errors: CustomEvent[] = [];
    const listener = (event: Event) => errors.push(event as CustomEvent);
    document.addEventListener('hub-error', listener);
    await embedOnHost(s, { bridge: 'auto' });
    await until(() => errors.length > 0, 'hub-error');
    document.removeEventListener('hub-error', listener);
    expect(errors[0]!.detail.error.kind).toBe('token');
    expect(errors[0]!.detail.error.message).toContain('signed out');
    // The host's BridgeError, with its code, is the HubError's cause.
    expect(errors[0]!.detail.error.cause).toMatchObject({ name: 'BridgeError', code: 'E_DENIED' });
    await until(() => events(h, 'widget.error').length > 0, 'widget.error');
    expect(events(h, 'widget.error')[0]).toMatchObject({ kind: 'token' });
  });

  it('form.open handled by the host: the element opens nothing and tells form.opened {handledBy: host}', async () => {
    const s = setupHub();
    const opened: Array<{ shortCode: string; url: string }> = [];
    const h = host('webkit-reply', {
      handlers: { ...tokenHandlers(s), 'form.open': (params) => (opened.push(params), { handled: true }) },
    });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    const pageOpens: Event[] = [];
    el.addEventListener('hub-form-open', (event) => pageOpens.push(event));
    await clickCard(el);
    await until(() => events(h, 'form.opened').length > 0, 'form.opened');
    const shortCode = gridOf(el).tables[0]!.short_code;
    expect(opened).toHaveLength(1);
    expect(opened[0]!.shortCode).toBe(shortCode);
    // The token goes only into a URL of the form site's origin.
    expect(new URL(opened[0]!.url).origin).toBe(new URL(s.hub.formUrl).origin);
    expect(events(h, 'form.opened')).toEqual([{ shortCode, handledBy: 'host' }]);
    expect(frameOf(el)).toBeNull();
    expect(pageOpens).toEqual([]);
  });

  it('a native host answered: nothing is prepared for it, though a pointer rests on a card and the mode is modal', async () => {
    const s = setupHub();
    // The host answers form.open with {handled: false}: a prepared form would even be the one shown.
    host('webkit', { handlers: { ...tokenHandlers(s), 'form.open': () => ({ handled: false }) } });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    const rest = () => {
      part(cardsOf(el)[0]!, 'card')!.dispatchEvent(
        new PointerEvent('pointerover', { bubbles: true, composed: true, pointerType: 'mouse' }),
      );
      return new Promise((resolve) => setTimeout(resolve, PREPARE_AFTER_MS * 3));
    };
    // The first pointer brings the form half; the second rests on a card with the half in.
    await rest();
    await customElements.whenDefined('hub-form-frame');
    await rest();
    await el.updateComplete;
    expect(frameOf(el)).toBeNull();
  });

  it('form.open answered {handled: false}, or failing: the page opens the form itself', async () => {
    const s = setupHub();
    let answer: 'no' | 'fail' = 'no';
    const h = host('webkit', {
      handlers: {
        ...tokenHandlers(s),
        'form.open': () => {
          if (answer === 'fail') throw new Error('sheet busy');
          return { handled: false };
        },
      },
    });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    await clickCard(el);
    await until(() => !!frameOf(el), 'the page form');
    const shortCode = gridOf(el).tables[0]!.short_code;
    expect(events(h, 'form.opened')).toEqual([{ shortCode, handledBy: 'page' }]);
    el.closeForm();
    answer = 'fail';
    await clickCard(el);
    await until(() => !!frameOf(el), 'the page form after a failed form.open');
  });

  it('events mirrored to the host: widget.ready, table.selected, form.opened, form.closed, widget.error', async () => {
    const s = setupHub();
    const h = host('android-jsi', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    await until(() => events(h, 'widget.ready').length > 0, 'widget.ready');
    expect(events(h, 'widget.ready')).toEqual([{ version: expect.any(String), locale: 'en' }]);
    const table = gridOf(el).tables[0]!;
    await clickCard(el);
    await until(() => !!frameOf(el), 'the form');
    el.closeForm();
    await until(() => events(h, 'form.closed').length > 0, 'form.closed');
    expect(events(h, 'table.selected')).toEqual([{ shortCode: table.short_code, name: table.name }]);
    expect(events(h, 'form.opened')).toEqual([{ shortCode: table.short_code, handledBy: 'page' }]);
    expect(events(h, 'form.closed')).toEqual([{ shortCode: table.short_code }]);
    s.offline.value = true;
    void el.refresh();
    await until(() => events(h, 'widget.error').length > 0, 'widget.error');
    expect(events(h, 'widget.error')).toEqual([{ kind: 'network', message: expect.any(String) }]);
    // No event the host hears carries the token.
    expect(JSON.stringify(h.events)).not.toMatch(/token=/);
  });

  it('widget.ready tells the host the language the widget shows, so its own controls speak it', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto', locale: 'zh-CN' });
    await ready(el);
    await until(() => events(h, 'widget.ready').length > 0, 'widget.ready');
    expect(events(h, 'widget.ready')).toEqual([{ version: expect.any(String), locale: 'zh-CN' }]);
  });

  it('tags.changed: the user’s new selection reaches the host; the host’s own setTags is not echoed back', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    const filter = el.shadowRoot!.querySelector('hub-tag-filter')!;
    const [first, second] = filter.offered;
    await h.request('widget.setTags', { tags: [first!] });
    await ready(el);
    expect(events(h, 'tags.changed')).toEqual([]);
    const chips = [...filter.shadowRoot!.querySelectorAll('button')];
    chips.find((chip) => chip.title === second)!.click();
    await until(() => events(h, 'tags.changed').length > 0, 'tags.changed');
    expect(events(h, 'tags.changed')).toEqual([{ tags: el.tags }]);
    expect(el.tags).toContain(second);
  });

  it('a cancelled hub-table-select is not mirrored as table.selected', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    el.addEventListener('hub-table-select', (event) => event.preventDefault());
    await clickCard(el);
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events(h, 'table.selected')).toEqual([]);
  });

  it('host requests widget.refresh, widget.setTags and form.close drive the element', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    const lists = () => s.urls.filter((url) => url.includes('published-list')).length;
    const before = lists();
    await h.request('widget.refresh', {});
    expect(lists()).toBe(before + 1);
    const tag = el.shadowRoot!.querySelector('hub-tag-filter')!.offered[0]!;
    await expect(h.request('widget.setTags', { tags: [tag] })).resolves.toBeNull();
    expect(el.tags).toEqual([tag]);
    await until(
      () => s.urls.at(-1)!.includes('published-list') && s.urls.at(-1)!.includes(encodeURIComponent(tag)),
      'the tagged list',
    );
    await expect(h.request('form.close', {})).resolves.toEqual({ closed: false });
    await ready(el);
    await clickCard(el);
    await until(() => !!frameOf(el), 'the form');
    await expect(h.request('form.close', {})).resolves.toEqual({ closed: true });
    expect(frameOf(el)).toBeNull();
    await expect(h.request('widget.setTags', { tags: 'x' })).rejects.toMatchObject({ code: 'E_DENIED' });
  });

  it('parent frame transport: only an origin listed in bridge-origins is taken as the host', async () => {
    const s = setupHub();
    const h = host('parent', { origin: PARENT_ORIGIN, handlers: tokenHandlers(s) });
    // Where the browser reports the parent's origin (Chromium) it alone decides among several.
    const el = await embedOnHost(s, {
      bridge: 'auto',
      'bridge-origins': inChromium ? `https://other.example, ${PARENT_ORIGIN}` : PARENT_ORIGIN,
    });
    await ready(el);
    expect(methods(h)).toEqual(['bridge.hello', 'auth.getToken']);
  });

  it('parent frame not in bridge-origins: no message goes to it and the token comes from token-endpoint', async () => {
    const s = setupHub();
    const h = host('parent', { origin: PARENT_ORIGIN, handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, {
      bridge: 'auto',
      'bridge-origins': 'https://other.example , https://third.example',
      'token-endpoint': s.endpoint,
    });
    await ready(el);
    expect(el.bridgeOrigins).toEqual(['https://other.example', 'https://third.example']);
    expect(h.posted).toEqual([]);
    expect(s.tokenCalls()).toBe(1);
  });

  it('several widgets: each has its own session and handshake', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const a = await embedOnHost(s, { bridge: 'auto' });
    const b = await embedOnHost(s, { bridge: 'auto' });
    await ready(a);
    await ready(b);
    expect(new Set(h.sessions).size).toBe(2);
    await until(() => events(h, 'widget.ready').length === 2, 'two widget.ready');
    await h.request('form.close', {}, h.sessions[0]);
    await expect(h.request('form.close', {}, h.sessions[1])).resolves.toEqual({ closed: false });
  });

  it('disconnect removes every bridge listener; a host request is then never answered; reconnect shakes hands again', async () => {
    const s = setupHub();
    const h = host('android', { handlers: tokenHandlers(s) });
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const channel = (window as any).hubEmbed as EventTarget;
    const channelAdded = vi.spyOn(channel, 'addEventListener');
    const channelRemoved = vi.spyOn(channel, 'removeEventListener');
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    const parent = el.parentElement!;
    el.remove();
    for (const [spyAdd, spyRemove] of [
      [added, removed],
      [channelAdded, channelRemoved],
    ] as const) {
      const listeners = spyAdd.mock.calls
        .filter(([type]) => type === 'message' || type === 'pageshow')
        .map(([, fn]) => fn);
      for (const fn of listeners) expect(spyRemove.mock.calls.some(([, removedFn]) => removedFn === fn)).toBe(true);
    }
    expect(channelAdded.mock.calls.length).toBeGreaterThan(0);
    expect((window as any).__hubEmbedReceive.receivers.size).toBe(0);
    const answered = h.messages.filter((m) => m.kind === 'res').length;
    void h.request('widget.refresh', {}, h.sessions[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.messages.filter((m) => m.kind === 'res').length).toBe(answered);
    parent.append(el);
    await until(() => h.sessions.length === 2, 'a second hello');
    await expect(h.request('form.close', {})).resolves.toEqual({ closed: false });
  });

  // Issue 36 item 4: Flutter (runJavaScript on page start) and Android without document-start scripts inject
  // the marker, and with it the nonce their hosts require, after the page's first scripts.
  it('a late marker: a host object found without a nonce waits for its marker, then the host supplies the token', async () => {
    const s = setupHub();
    const h = host('flutter', { nonce: 'late-nonce', handlers: tokenHandlers(s) });
    const win = window as { __HUB_EMBED_BRIDGE__?: unknown };
    const marker = win.__HUB_EMBED_BRIDGE__;
    delete win.__HUB_EMBED_BRIDGE__;
    setTimeout(() => {
      win.__HUB_EMBED_BRIDGE__ = marker;
    }, 150);
    const el = await embedOnHost(s, { bridge: 'auto' });
    await ready(el);
    expect(methods(h)).toEqual(['bridge.hello', 'auth.getToken']);
    expect(h.messages.every((m) => m.nonce === 'late-nonce')).toBe(true);
  });

  it('a page that never meets a host says so: a localized no-host message, not "Set token-endpoint"', async () => {
    const s = setupHub();
    const errors: string[] = [];
    const el = document.createElement('hub-embed');
    el.addEventListener('hub-error', (event) => {
      errors.push(event.detail.error.kind);
      event.preventDefault(); // expected here: kept off the console
    });
    el.setAttribute('locale', 'zh-CN');
    for (const [name, value] of [
      ['base-url', s.hub.baseUrl],
      ['form-url', s.hub.formUrl],
      ['bridge', 'auto'],
    ])
      el.setAttribute(name!, value!);
    document.body.append(el);
    try {
      await until(() => !!el.shadowRoot?.querySelector('[part="error"]'), 'the error');
      const text = el.shadowRoot!.querySelector('[part="error"]')!.textContent!;
      expect(text).toContain(stringsFor('zh-CN')['no-host']);
      expect(text).not.toMatch(/token-endpoint/);
      expect(errors).toEqual(['no-host']);
    } finally {
      el.remove();
    }
  });

  it('a host that announces itself after the page gave up hears widget.error, and the widget loads through it', async () => {
    const s = setupHub();
    const el = await embedOnHost(s, { bridge: 'auto' });
    el.addEventListener('hub-error', (event) => event.preventDefault());
    await until(() => !!el.shadowRoot?.querySelector('[part="error"]'), 'the no-host error');
    const h = host('webkit', { handlers: tokenHandlers(s) });
    h.announce(); // bridge.ready, as a host that injected itself late sends it
    await ready(el);
    expect(events(h, 'widget.error')).toEqual([{ kind: 'no-host', message: expect.stringMatching(/No app host/) }]);
    expect(methods(h)).toEqual(['bridge.hello', 'auth.getToken']);
    expect(el.shadowRoot!.querySelector('[part="error"]')).toBeNull();
  });

  it('bridge set back to off closes the bridge and the widget reloads from token-endpoint', async () => {
    const s = setupHub();
    const h = host('webkit', { handlers: tokenHandlers(s) });
    const el = await embedOnHost(s, { bridge: 'auto', 'token-endpoint': s.endpoint });
    await ready(el);
    expect(s.tokenCalls()).toBe(0);
    el.bridge = 'off';
    await until(() => s.tokenCalls() === 1, 'the endpoint token');
    const posted = h.posted.length;
    el.closeForm();
    await ready(el);
    expect(h.posted.length).toBe(posted);
  });

  it.skipIf(!inChromium)(
    'a form page that refuses its token: the page asks the host for a new one as unauthorized, with previous, and the next open uses it',
    async () => {
      const s = setupHub();
      const given: string[] = [];
      const h = host('react-native', {
        handlers: {
          'auth.getToken': async () => {
            const token = await exchangeToken(s.hub);
            given.push(token.access_token);
            return token;
          },
        },
      });
      const el = await embedOnHost(s, { bridge: 'auto' });
      await ready(el);
      const iframe = () => frameOf(el)?.shadowRoot?.querySelector('iframe');
      const tokenInForm = () => new URL(iframe()!.src).searchParams.get('token');
      await clickCard(el);
      await until(() => !!iframe(), 'the form iframe');
      expect(tokenInForm()).toBe(given[0]);
      // The form site's load report for a token it refused, from the form's own frame and origin.
      const data = { source: 'hub-form', type: 'load', ok: false, reason: 'unauthorized' };
      const origin = new URL(s.hub.formUrl).origin;
      window.dispatchEvent(new MessageEvent('message', { data, origin, source: iframe()!.contentWindow }));
      await until(() => given.length === 2 && tokenInForm() === given[1], 'the form with a new token');
      const asked = h.messages.filter((m) => m.method === 'auth.getToken').map((m) => m.params);
      expect(asked).toEqual([{ reason: 'initial' }, { reason: 'unauthorized', previous: given[0] }]);

      el.closeForm();
      await clickCard(el);
      await until(() => !!iframe(), 'the next form');
      expect(tokenInForm()).toBe(given[1]);
      expect(given).toHaveLength(2);
    },
  );

  // Pitfall 13: the form iframe reaches the host only through the widget, and only from the form origin.
  it.skipIf(!inChromium)(
    'form page messages reach the host as form.message only from the form iframe and the form_url origin',
    async () => {
      const s = setupHub();
      const h = host('webkit', { handlers: tokenHandlers(s) });
      const el = await embedOnHost(s, { bridge: 'auto' });
      await ready(el);
      await clickCard(el);
      await until(() => !!frameOf(el)?.shadowRoot?.querySelector('iframe'), 'the form iframe');
      const shortCode = gridOf(el).tables[0]!.short_code;
      const own = frameOf(el)!.shadowRoot!.querySelector('iframe')!.contentWindow!;
      const formOrigin = new URL(s.hub.formUrl).origin;
      const post = (init: MessageEventInit) => window.dispatchEvent(new MessageEvent('message', init));
      post({ data: { source: 'hub-form', type: 'paid' }, origin: formOrigin, source: own });
      post({ data: 'wrong origin', origin: 'https://evil.example', source: own });
      post({ data: 'wrong window', origin: formOrigin, source: window });
      // A bridge request forged by the form page is relayed as data, never run: the form stays open.
      const forged = JSON.stringify({
        ns: 'hub-embed',
        v: 1,
        sid: h.sessions[0],
        id: 'x1',
        kind: 'req',
        method: 'form.close',
        params: {},
      });
      post({ data: forged, origin: formOrigin, source: own });
      await until(() => events(h, 'form.message').length === 2, 'two form.message');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(events(h, 'form.message')).toEqual([
        { shortCode, data: { source: 'hub-form', type: 'paid' } },
        { shortCode, data: forged },
      ]);
      expect(frameOf(el)).not.toBeNull();
      expect(h.messages.some((m) => m.kind === 'res' && m.id === 'x1')).toBe(false);
    },
  );
});

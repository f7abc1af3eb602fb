import { describe, expect, it, vi } from 'vitest';
import { fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/webview.js';
import '../../src/define.js';
import { createMockHost } from '../../src/host/index.js';
import { publishedListPath } from '../../src/core/paths.js';
import type { TokenAnswer, TokenContext, TokenProvider } from '../../src/core/token-source.js';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';
import { exchangeToken, gridOf } from './helpers.js';

/**
 * The simulator behind the page's fetch (every URL recorded) and a token provider that, like a token
 * endpoint with prefetch, answers the token and the first answers for the widget's load. `shape` may bend
 * the prefetched answers to test what the widget does with odd ones.
 */
function setup(shape: (answers: Record<string, unknown>, ctx: TokenContext) => unknown = (answers) => answers) {
  const hub = createSimulator({});
  const urls: string[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return hub.fetch(input, init);
  });
  const loads: TokenContext['load'][] = [];
  const provider: TokenProvider = async (ctx) => {
    loads.push(ctx.load);
    const token = await exchangeToken(hub, 'prefetch-user');
    const answers: Record<string, unknown> = {};
    if (ctx.load) {
      const listPath = publishedListPath(ctx.load);
      answers['published-tags'] = await listOf(hub, token.access_token, 'published-tags');
      answers[listPath] = await listOf(hub, token.access_token, listPath);
    }
    return { ...token, prefetched: shape(answers, ctx) } as TokenAnswer;
  };
  const apiCalls = (name: string) => urls.filter((url) => url.includes(`/projects/${name}`));
  return { hub, urls, loads, provider, apiCalls };
}

async function listOf(hub: Simulator, token: string, path: string): Promise<unknown[]> {
  const response = await hub.fetch(`${hub.apiUrl}/projects/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { data: { list: unknown[] } }).data.list;
}

/** A <hub-embed> with `provider` (if any), connected once its hub-ready listener is in place. */
async function mount(hub: Simulator, provider: TokenProvider | undefined, attrs: Record<string, string> = {}) {
  const el = document.createElement('hub-embed');
  el.setAttribute('base-url', hub.baseUrl);
  el.setAttribute('form-url', hub.formUrl);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.tokenProvider = provider;
  const readyEvent = oneEvent(el, 'hub-ready');
  await fixture(html`<div>${el}</div>`);
  return { el, ready: readyEvent as Promise<CustomEvent<{ offered: string[]; tables: { short_code: string }[] }>> };
}

describe('<hub-embed> with prefetched answers', () => {
  it('reaches hub-ready without asking for published-tags or published-list when they came with the token', async () => {
    const s = setup();
    const { el, ready } = await mount(s.hub, s.provider, { tags: '装修,delivery', limit: '4' });
    const event = await ready;
    expect(s.apiCalls('published-tags')).toEqual([]);
    expect(s.apiCalls('published-list')).toEqual([]);
    expect(s.loads).toEqual([{ tags: ['装修', 'delivery'], limit: 4 }]);
    expect(event.detail.offered.length).toBeGreaterThan(5);
    expect(event.detail.tables).toHaveLength(4);
    expect(gridOf(el).tables).toEqual(event.detail.tables);
  });

  it('shows the same tags and tables as the network path would', async () => {
    const withPrefetch = setup();
    const a = await mount(withPrefetch.hub, withPrefetch.provider, { tags: 'delivery' });
    const without = setup(() => undefined);
    const b = await mount(without.hub, without.provider, { tags: 'delivery' });
    const [fromToken, fromNetwork] = [(await a.ready).detail, (await b.ready).detail];
    expect(without.apiCalls('published-list')).toHaveLength(1);
    expect(fromToken).toEqual(fromNetwork);
  });

  it('checks prefetched items as it checks the service’s: items without short_code or name are dropped', async () => {
    const s = setup((answers, ctx) => {
      const path = publishedListPath(ctx.load!);
      return {
        ...answers,
        'published-tags': ['ok', '', 7, null],
        [path]: [{ name: 'no code' }, { short_code: 'x1', name: 'Kept', icon: 'javascript:alert(1)' }, 'junk'],
      };
    });
    const { ready } = await mount(s.hub, s.provider);
    const event = await ready;
    expect(event.detail.offered).toEqual(['ok']);
    expect(event.detail.tables).toEqual([{ short_code: 'x1', name: 'Kept', industry: '', tags: [] }]);
    expect(s.apiCalls('published-list')).toEqual([]);
  });

  it('answers for another selection are ignored: the list comes from the network', async () => {
    const s = setup((answers) => {
      const other = publishedListPath({ tags: ['freight'] });
      return { 'published-tags': answers['published-tags'], [other]: [{ short_code: 'zz', name: 'Other' }] };
    });
    const { ready } = await mount(s.hub, s.provider, { tags: 'delivery' });
    const event = await ready;
    expect(s.apiCalls('published-list')).toHaveLength(1);
    expect(s.apiCalls('published-tags')).toEqual([]);
    expect(event.detail.tables.map((table) => table.short_code)).not.toContain('zz');
  });

  for (const [name, malformed] of [
    ['a string', () => 'published-tags'],
    ['null', () => null],
    ['an array', () => [[], []]],
    [
      'answers that are not lists',
      (answers: Record<string, unknown>) =>
        Object.fromEntries(Object.keys(answers).map((key) => [key, { list: 'nope' }])),
    ],
  ] as const) {
    it(`malformed prefetched data (${name}) is ignored: the widget loads normally`, async () => {
      const s = setup(malformed);
      const { el, ready } = await mount(s.hub, s.provider);
      const event = await ready;
      expect(s.apiCalls('published-tags')).toHaveLength(1);
      expect(s.apiCalls('published-list')).toHaveLength(1);
      expect(event.detail.tables.length).toBeGreaterThan(0);
      expect(el.shadowRoot!.querySelector('[part~="error"]')).toBeNull();
    });
  }

  it('a later tag change goes to the network as usual', async () => {
    const s = setup();
    const { el, ready } = await mount(s.hub, s.provider);
    await ready;
    expect(s.apiCalls('published-list')).toEqual([]);
    el.tags = ['delivery'];
    await vi.waitFor(() => expect(s.apiCalls('published-list')).toHaveLength(1));
    await vi.waitFor(() => expect(gridOf(el).loading).toBe(false));
    expect(s.apiCalls('published-list')[0]).toContain('tags=delivery');
  });

  it('prefetched answers serve one load only: a refresh with the same token asks the network', async () => {
    const s = setup();
    const { el, ready } = await mount(s.hub, s.provider);
    await ready;
    const again = oneEvent(el, 'hub-ready');
    await el.refresh();
    await again;
    expect(s.loads).toHaveLength(1);
    expect(s.apiCalls('published-tags')).toHaveLength(1);
    expect(s.apiCalls('published-list')).toHaveLength(1);
  });

  it('a native host’s auth.getToken may answer prefetched the same way (docs/webview.md)', async () => {
    const s = setup();
    const host = createMockHost('webkit', {
      // The host knows the selection it set; it asks its own server, which answers like a token endpoint.
      handlers: { 'auth.getToken': () => s.provider({ reason: 'initial', load: { tags: ['delivery'] } }) },
    });
    try {
      const { el, ready } = await mount(s.hub, undefined, { bridge: 'auto', tags: 'delivery' });
      const event = await ready;
      expect(s.apiCalls('published-tags')).toEqual([]);
      expect(s.apiCalls('published-list')).toEqual([]);
      expect(event.detail.tables.length).toBeGreaterThan(0);
      expect(gridOf(el).tables).toEqual(event.detail.tables);
    } finally {
      host.remove();
      delete (window as { __hubEmbedReceive?: unknown }).__hubEmbedReceive;
    }
  });
});

// renderFirstView (issue 80, item 1): the first view's HTML from the prefetch's answers, escaped for each
// context, without secrets, bounded to the first screen, and absent when the lists fail or are late.
import fc from 'fast-check';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { SCREEN_CARDS } from '../../src/components/hub-table-grid/screens.js';
import { otherLocales } from '../../src/components/locales/other-locales.js';
import { stringsFor } from '../../src/components/strings.js';
import { isHubError } from '../../src/core/errors.js';
import type { PublishedTable } from '../../src/core/types.js';
import { firstViewMarkup } from '../../src/first-view/first-view-markup.js';
import { escapeAttribute, escapeText, html } from '../../src/first-view/markup-tag.js';
import { renderFirstView, type FirstViewOptions } from '../../src/first-view/render-first-view.js';
import { createServerClient } from '../../src/server/server-client.js';
import { createTokenHandler } from '../../src/server/token-handler.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Every element of a parsed tree, template contents (the shadow roots) included. */
function elements(node: Node): Element[] {
  const children = [
    ...('childNodes' in node ? node.childNodes : []),
    ...('content' in node && node.content ? node.content.childNodes : []),
  ];
  return [...('tagName' in node ? [node as Element] : []), ...children.flatMap(elements)];
}
const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? (node as { value: string }).value
    : ('childNodes' in node ? node.childNodes : []).map(textOf).join('');
const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
const byPart = (root: Node, part: string) =>
  elements(root).filter((e) => (attr(e, 'part') ?? '').split(' ').includes(part));

/** What a string becomes in any HTML page: NUL and unpaired UTF-16 halves are not writable (see markup-tag.ts). */
const writable = (value: string) =>
  value.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const view = (tables: PublishedTable[], offered: string[] = [], selected: string[] = []) =>
  parseFragment(
    firstViewMarkup({
      attributes: [['locale', 'en']],
      strings: stringsFor('en'),
      offered,
      tables,
      selected,
      matchesOnly: false,
    }),
  );

const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const table = fc.record({
  short_code: fc.string({ minLength: 1 }),
  name: anyText.filter((name) => name !== ''),
  industry: anyText,
  tags: fc.array(
    anyText.filter((tag) => tag !== ''),
    { maxLength: 3 },
  ),
  icon: fc.option(fc.oneof(fc.webUrl(), anyText, fc.constant('javascript:alert(1)')), { nil: undefined }),
});

describe('renderFirstView: escaping', () => {
  it('every value is escaped for its context: text, attribute and URL read back as given (property-based)', () => {
    fc.assert(
      fc.property(
        fc.array(table, { minLength: 1, maxLength: 4 }),
        fc.array(anyText, { maxLength: 4 }),
        (tables, offered) => {
          const offeredTags = offered.filter(Boolean);
          const root = view(tables, offeredTags);
          // Nothing but the view's own elements: no value opened a tag.
          const names = new Set(elements(root).map((e) => e.tagName));
          for (const name of names)
            expect([
              'hub-embed',
              'template',
              'style',
              'div',
              'hub-tag-filter',
              'hub-table-grid',
              'button',
              'p',
              'span',
              'img',
            ]).toContain(name);
          // Text: each name, industry and tag reads back as it was.
          expect(byPart(root, 'name').map(textOf)).toEqual(tables.map((t) => writable(t.name)));
          expect(byPart(root, 'industry').map(textOf)).toEqual(tables.map((t) => writable(t.industry)));
          expect(byPart(root, 'tag').map(textOf)).toEqual(tables.flatMap((t) => t.tags.map(writable)));
          // Attribute: each chip's title is its tag.
          expect(byPart(root, 'chip').map((e) => attr(e, 'title'))).toEqual(
            offeredTags.length === 0 ? [] : ['All', ...new Set(offeredTags)].map(writable),
          );
          // URL: an icon is written only as an http(s) URL.
          for (const img of byPart(root, 'icon').filter((e) => e.tagName === 'img'))
            expect(new URL(attr(img, 'src')!).protocol).toMatch(/^https?:$/);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a 10,000-character name, a javascript: icon and a tag holding </template><script> are written as text', () => {
    const tag = '</template><script>alert(1)</script><template shadowrootmode="open">';
    const long = '名'.repeat(10_000);
    const root = view(
      [{ short_code: 'x', name: long, industry: '<b>', tags: [tag], icon: 'javascript:alert(1)' }],
      [tag],
    );
    expect(elements(root).some((e) => e.tagName === 'script' || e.tagName === 'b')).toBe(false);
    expect(byPart(root, 'name').map(textOf)).toEqual([long]);
    expect(byPart(root, 'tag').map(textOf)).toEqual([tag]);
    expect(byPart(root, 'chip').map(textOf)).toEqual(['All', tag]);
    // The icon: the placeholder, no image.
    expect(elements(root).some((e) => e.tagName === 'img')).toBe(false);
    expect(byPart(root, 'icon-placeholder').map(textOf)).toEqual(['名']);
  });

  it('U+2028, U+2029, bidirectional marks and CR are written as references, and read back unchanged', () => {
    const hostile = 'a\u2028b\u2029c\u202eevil\u200f\u2066d\re';
    expect(escapeText(hostile)).toBe('a&#x2028;b&#x2029;c&#x202e;evil&#x200f;&#x2066;d&#xd;e');
    expect(escapeAttribute(`"'&<>${hostile}`)).toMatch(/^&quot;&#39;&amp;&lt;&gt;a&#x2028;/);
    const root = view([{ short_code: 'r', name: hostile, industry: '', tags: [] }]);
    expect(byPart(root, 'name').map(textOf)).toEqual([hostile]);
  });

  it("Lit's binding prefixes: @listeners and .properties write nothing, ?booleans a bare attribute", () => {
    const markup = html`<button @click=${() => 1} .value=${{ a: 1 }} ?disabled=${true} ?hidden=${false} title="${'"x"'}">${'<i>'}</button>`;
    expect(markup.html).toBe('<button disabled title="&quot;x&quot;">&lt;i&gt;</button>');
    expect(() => html`<img src=${'javascript:alert(1)'}>`).toThrow(TypeError);
    expect(() => html`<div ${'onclick=alert(1)'}></div>`).toThrow(SyntaxError);
  });
});

/**
 * The published list's answer as a service sends it, with `change`'s tables: the simulator's own list, or
 * none where it refuses the load (it lists at most 100).
 */
const changeList =
  (change: (tables: unknown[]) => unknown[]) =>
  (f: typeof fetch): typeof fetch =>
  async (input, init) => {
    const response = await f(input, init);
    if (!String(input).includes('published-list')) return response;
    const body = (await response.json()) as { data: { list: unknown[] } | null };
    return Response.json({ code: 200, message: 'success', data: { list: change(body.data?.list ?? []) } });
  };

const USER = 'user-8c1f-secret-id';
/** The page's request, as the page's user sends it: the session cookie names them. */
const pageRequest = (user = USER) => new Request('https://app.example/', { headers: { cookie: `session=${user}` } });

/** The simulator, the server's client on it, and the page's token route with its prefetch on. */
function setup(
  hubOptions: Parameters<typeof createSimulator>[0] = {},
  timeoutMs = 3000,
  fetchWrap?: (f: typeof fetch) => typeof fetch,
) {
  const hub = createSimulator(hubOptions);
  const errors: unknown[] = [];
  const client = createServerClient({
    apiKey: hub.apiKey,
    baseUrl: hub.apiUrl,
    fetch: fetchWrap ? fetchWrap(hub.fetch) : hub.fetch,
  });
  const tokens = createTokenHandler({
    client,
    // The app's session lookup: the cookie's user, nobody without one.
    resolveClientUserId: (request) => /session=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? null,
    prefetch: { cacheMs: 60_000, timeoutMs },
    onError: (error) => errors.push(error),
  });
  const lists = () => hub.requestLog.filter((entry) => /\/projects\/published-/.test(entry.path)).length;
  const exchanges = () => hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token')).length;
  return { hub, client, tokens, errors, lists, exchanges };
}

async function render(s: ReturnType<typeof setup>, overrides: Partial<FirstViewOptions> = {}) {
  const html = await renderFirstView({
    tokens: s.tokens,
    request: pageRequest(),
    element: { tokenEndpoint: '/api/hub-token' },
    locale: 'en',
    ...overrides,
  });
  return { html };
}

describe('renderFirstView: what it writes', () => {
  it('writes <hub-embed> with its filter, the first screen of cards and the count in the page locale, as declarative shadow DOM', async () => {
    const s = setup();
    const { html } = await render(s, { locale: 'zh-CN', element: { tokenEndpoint: '/api/hub-token', limit: 5 } });
    const root = parseFragment(html);
    const embed = elements(root)[0]!;
    expect(embed.tagName).toBe('hub-embed');
    expect(attr(embed, 'locale')).toBe('zh-CN');
    expect(attr(embed, 'limit')).toBe('5');
    expect(
      elements(root)
        .filter((e) => e.tagName === 'template')
        .map((e) => attr(e, 'shadowrootmode')),
    ).toEqual(['open', 'open', 'open']);
    expect(byPart(root, 'card')).toHaveLength(5);
    expect(byPart(root, 'chip-all').map(textOf)).toEqual([otherLocales['zh-CN'].all]);
    expect(byPart(root, 'count').map(textOf)).toEqual([otherLocales['zh-CN'].results.replace('{n}', '5')]);
    // Each shadow root carries its element's styles.
    expect(elements(root).filter((e) => e.tagName === 'style')).toHaveLength(3);
  });

  it.each(['en', 'zh-CN', 'zh-TW', 'ja', 'ko'] as const)(
    "writes the texts of %s, each locale the element speaks, at once: a server has every locale's table",
    async (locale) => {
      const { html } = await render(setup(), { locale });
      const texts = locale === 'en' ? stringsFor('en') : otherLocales[locale];
      const root = parseFragment(html);
      expect(byPart(root, 'chip-all').map(textOf)).toEqual([texts.all]);
      expect(byPart(root, 'grid').map((e) => attr(e, 'aria-label'))[0]).toBe(texts.tables);
    },
  );

  it("the view's mark holds the base-url, form-url and tags it was drawn for, as the element reads its attributes", async () => {
    const element = {
      tokenEndpoint: '/api/hub-token',
      baseUrl: 'https://api.example/x?a="1"&b=<2>',
      formUrl: '/forms',
      tags: [' Retail ', 'B2B', ''],
      limit: 7,
      matchesOnly: true,
    };
    const { html } = await render(setup(), { element });
    const root = parseFragment(html);
    const mark = elements(root).find((e) => attr(e, 'data-first-view') !== undefined)!;
    // The element's `tags` converter trims and drops blanks; limit and matches-only are not in it.
    expect(JSON.parse(attr(mark, 'data-first-view')!)).toEqual([element.baseUrl, '/forms', ['Retail', 'B2B']]);
    // Without a base-url or form-url the element reads '' for each, and so does the mark.
    const bare = parseFragment((await render(setup())).html);
    const bareMark = elements(bare).find((e) => attr(e, 'data-first-view') !== undefined)!;
    expect(JSON.parse(attr(bareMark, 'data-first-view')!)).toEqual(['', '', []]);
  });

  it('refuses a locale the element does not speak, naming those it does', async () => {
    await expect(render(setup(), { locale: 'fr' as never })).rejects.toThrow(/locale must be one of en, zh-CN/);
  });

  it('no token, no client_user_id and no API key ever appears in the HTML', async () => {
    // The bearer tokens the lists were fetched with, as they went out.
    const bearers = new Set<string>();
    const s = setup({}, 3000, (f) => async (input, init) => {
      const bearer = new Headers(init?.headers).get('authorization');
      if (bearer) bearers.add(bearer.replace('Bearer ', ''));
      return f(input, init);
    });
    const { html } = await render(s);
    expect(html).toContain('part="card"');
    expect(bearers.size).toBe(1);
    for (const secret of [...bearers, USER, s.hub.apiKey, 'X-API-Key', 'client_user_id'])
      expect(html).not.toContain(secret);
    // A service answer that carries the token back (a table named after it) gives no first view at all.
    let echoedToken = '';
    const echo = setup({}, 3000, (f) => async (input, init) => {
      echoedToken = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '') ?? echoedToken;
      return changeList((tables) => [...tables, { short_code: 'echo', name: echoedToken, tags: [] }])(f)(input, init);
    });
    const echoed = await renderFirstView({ tokens: echo.tokens, request: pageRequest(), element: {}, locale: 'en' });
    expect(echoedToken).not.toBe('');
    expect(echoed).toBe('<hub-embed locale="en"></hub-embed>');
  });

  it('a published list of 1,000 tables renders only the first screen', async () => {
    // The simulator lists at most 100 a page; a service may send 1,000 (the most a load asks for).
    const thousand = Array.from({ length: 1000 }, (_, i) => ({
      short_code: `many-${i}`,
      name: `Table ${i}`,
      tags: [],
    }));
    const s = setup(
      {},
      3000,
      changeList(() => thousand),
    );
    const { html } = await render(s, { element: { limit: 1000 } });
    expect(s.errors).toEqual([]);
    const root = parseFragment(html);
    expect(byPart(root, 'card')).toHaveLength(SCREEN_CARDS);
    expect(byPart(root, 'count').map(textOf)).toEqual(['1000 results']);
  });

  it('the page and the token request after it share one exchange and one fetch of each list', async () => {
    const s = setup();
    const html = await renderFirstView({ tokens: s.tokens, request: pageRequest(), element: {}, locale: 'en' });
    expect(html).toContain('part="card"');
    expect([s.exchanges(), s.lists()]).toEqual([1, 2]);
    // The widget's token request, as the browser sends it with the same session.
    const answer = await s.tokens(
      new Request('https://app.example/api/hub-token', {
        method: 'POST',
        headers: { cookie: `session=${USER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ load: { tags: [] } }),
      }),
    );
    const body = (await answer.json()) as { access_token: string; prefetched: Record<string, unknown[]> };
    expect(Object.keys(body.prefetched)).toHaveLength(2);
    expect([s.exchanges(), s.lists()]).toEqual([1, 2]);
  });

  it('a signed-out page gets the bare element, and nothing is fetched for it', async () => {
    const s = setup();
    const html = await renderFirstView({
      tokens: s.tokens,
      request: new Request('https://app.example/'),
      element: { tokenEndpoint: '/t' },
      locale: 'en',
    });
    expect(html).toBe('<hub-embed token-endpoint="/t" locale="en"></hub-embed>');
    expect([s.exchanges(), s.lists()]).toEqual([0, 0]);
  });

  it('a token route without prefetch is refused by name: the first view is drawn from its prefetch', async () => {
    const s = setup();
    const withoutPrefetch = createTokenHandler({ client: s.client, resolveClientUserId: () => USER });
    await expect(
      renderFirstView({ tokens: withoutPrefetch, request: pageRequest(), element: {}, locale: 'en' }),
    ).rejects.toThrow(/renderFirstView needs a token handler with prefetch on/);
  });
});

describe('renderFirstView: failures and limits', () => {
  it('a list that fails renders no first view: the element as it loads today', async () => {
    const s = setup({ faultRate: 1 });
    const html = await renderFirstView({
      tokens: s.tokens,
      request: pageRequest(),
      element: { tokenEndpoint: '/t', tags: ['装修'] },
      locale: 'en',
    });
    expect(html).toBe('<hub-embed token-endpoint="/t" tags="装修" locale="en"></hub-embed>');
    expect(s.errors.length).toBeGreaterThan(0);
  });

  // Each request the first view needs, held until the test ends: a renderer that waited for it would never
  // settle. Behind a held exchange no list is asked for; behind a held list, only the tags.
  it.each([
    ['a list', 'published-list', 1],
    ['a token exchange', '/apikeys/token', 0],
  ])(
    '%s later than the prefetch timeoutMs renders no first view: the page waits no longer',
    async (_, held, listsAsked) => {
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      const s = setup({}, 50, (f) => async (input, init) => {
        if (String(input).includes(held)) await holding;
        return f(input, init);
      });
      try {
        const { html } = await render(s);
        expect(html).toBe('<hub-embed token-endpoint="/api/hub-token" locale="en"></hub-embed>');
        expect(s.lists()).toBe(listsAsked);
      } finally {
        release();
      }
    },
  );

  it('options the element would not take throw a config error naming them, before any request', async () => {
    const s = setup();
    const bad: Partial<FirstViewOptions>[] = [
      { locale: 'fr' as 'en' },
      { tokens: (async () => new Response()) as never },
      { request: 'https://app.example/' as never },
      { element: { tokenEndpoint: 'javascript:alert(1)' } },
      { element: { baseUrl: 'https://user:pass@hub.example.com' } },
      { element: { formUrl: 'https://x.example/\n' } },
      { element: { tags: ['a,b'] } },
      { element: { tags: ['x'.repeat(201)] } },
      { element: { limit: 0 } },
      { element: { theme: 'neon' as 'dark' } },
      { element: { openMode: 'popup' as 'modal' } },
      { styleNonce: 'a\nb' },
    ];
    const before = s.lists();
    for (const overrides of bad) {
      const error = await renderFirstView({
        tokens: s.tokens,
        request: pageRequest(),
        element: {},
        locale: 'en',
        ...overrides,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isHubError(error, 'config'), JSON.stringify(overrides)).toBe(true);
    }
    expect(s.lists()).toBe(before);
  });
});

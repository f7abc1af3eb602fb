// The WeChat page pair (examples/wechat), run with stand-ins for the mini-program's globals only (Page
// and console): the page files load as a mini-program loads them, and their logic meets the protocol
// test vectors, batched the way the WeChat transport batches them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { eventRefusal } from '../../src/host/event-shapes.js';

const root = new URL('../../examples/wechat/', import.meta.url);
const requireHere = createRequire(root);
const { readHubEvents, formUrlFrom } = requireHere('./hub-embed-events.js') as {
  readHubEvents(data: unknown, onRejected?: (reason: string) => void): Array<{ method: string; params: unknown }>;
  formUrlFrom(encoded: string | undefined, site: string): string | undefined;
};
const signIn = requireHere('./server/sign-in.js') as {
  openIdFromLoginCode(code: unknown, app: { appId: string; appSecret: string; fetch?: typeof fetch }): Promise<string>;
  createTicketBook(options?: { ttlMs?: number; max?: number; now?: () => number }): {
    issueTicket(userId: string): string;
    redeemTicket(ticket: unknown): string | undefined;
    readonly size: number;
  };
  enterWithTicket(
    url: string,
    book: { redeemTicket(ticket: string): string | undefined },
  ): { userId: string | undefined; location: string } | null;
};

interface PageInstance {
  data: Record<string, unknown>;
  setData(patch: Record<string, unknown>): void;
  [key: string]: unknown;
}

/** Loads a page file as the mini-program does: `Page(config)`, with `require` relative to it. */
function loadPage(path: string, globals: Record<string, unknown> = {}): PageInstance {
  let config: Record<string, unknown> = {};
  const file = new URL(path, root);
  runInNewContext(readFileSync(file, 'utf8'), {
    Page: (definition: Record<string, unknown>) => (config = definition),
    require: createRequire(file),
    console,
    ...globals,
  });
  const page = { ...config, data: { ...(config.data as object) } } as PageInstance;
  page.setData = (patch) => Object.assign(page.data, patch);
  return page;
}

/** What bindmessage receives: every postMessage since the last delivery, each a batch of JSON strings. */
const delivery = (...batches: unknown[][]) => ({
  detail: {
    data: batches.map((batch) => ({ hubEmbed: batch.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))) })),
  },
});

describe('examples/wechat: the web-view page pair', () => {
  it('reads every event of every batch, in order, and skips what is not a v1 hub-embed event (the vectors)', () => {
    const event = vectors.cases.find((v) => 'event' in v)!;
    const hostile = vectors.cases.filter((v) => 'drop' in v && v.drop !== 'nonce' && v.drop !== 'sid');
    const events = readHubEvents(
      delivery(
        [event.send, ...hostile.map((v) => v.send)],
        [{ ...(event.send as object), method: 'form.closed', params: { shortCode: 'a' } }],
      ).detail.data,
    );
    expect(events).toEqual([
      event.event && { method: event.event.name, params: event.event.params },
      { method: 'form.closed', params: { shortCode: 'a' } },
    ]);
  });

  it('reads each event as hub-embed/host does: another name or shape is skipped with the kernel’s reason', () => {
    const cases = vectors.cases.filter(
      (v) => (v.send as { kind?: string }).kind === 'evt' && ('event' in v || ('drop' in v && / /.test(v.drop!))),
    );
    expect(cases.length).toBeGreaterThanOrEqual(10);
    const text = (n: number) => 'x'.repeat(n);
    const more: Array<[string, unknown]> = [
      ['tags.changed', { tags: Array.from({ length: 100 }, () => text(200)) }],
      ['tags.changed', { tags: Array.from({ length: 101 }, () => 'a') }],
      ['widget.ready', { version: '1', locale: null }],
      ['widget.error', { kind: 'k', message: text(2001) }],
      ['form.message', { shortCode: 'a' }],
      ['toString', {}],
    ];
    const sends = [
      ...cases.map((v) => v.send as { method: string; params?: unknown }),
      ...more.map(([method, params]) => ({ ns: 'hub-embed', v: 1, sid: 's', id: 'm', kind: 'evt', method, params })),
    ];
    const rejected: string[] = [];
    const events = readHubEvents(delivery(sends).detail.data, (reason) => rejected.push(reason));
    const refusals = sends.map((send) => eventRefusal(send.method, send.params));
    expect(rejected).toEqual(refusals.filter(Boolean));
    expect(events).toEqual(
      sends.filter((_, i) => !refusals[i]).map((send) => ({ method: send.method, params: send.params })),
    );
    expect(events.map((e) => e.method)).toContain('tags.changed');
  });

  it('the widget page keeps the user’s last selection (tags.changed) and opens the next visit with it', () => {
    const { wx } = wxStandIn({ data: { ticket: 'T1' } });
    const page = loadPage('pages/hub/index.js', { wx });
    const evt = (id: string, method: string, params: unknown) => ({
      ns: 'hub-embed',
      v: 1,
      sid: 's',
      id,
      kind: 'evt',
      method,
      params,
    });
    (page.onHubMessage as (e: unknown) => void).call(
      page,
      delivery(
        [evt('1', 'tags.changed', { tags: ['HR'] }), evt('2', 'tags.changed', { tags: ['HR', '装修'] })],
        // A bad one changes nothing.
        [evt('3', 'tags.changed', { tags: [42] })],
      ),
    );
    expect(wx.storage.get('hubEmbedTags')).toEqual(['HR', '装修']);
    const next = loadPage('pages/hub/index.js', { wx });
    (next.onLoad as () => void).call(next);
    expect(next.data.src).toBe('https://widget.example.com/embed?ticket=T1&tags=HR&tags=%E8%A3%85%E4%BF%AE');
  });

  it('the widget page selects the tags of its address before the widget loads anything', () => {
    const html = readFileSync(new URL('widget-page.html', root), 'utf8');
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const script = scripts.find((code) => code.includes('tags'))!;
    // After the element, before the deferred bundle defines it: Lit takes the property over at upgrade.
    expect(html.indexOf(script)).toBeGreaterThan(html.indexOf('</hub-embed>'));
    expect(html).toMatch(/<script src="\/hub-embed-webview\.iife\.js" defer><\/script>/);
    const run = (search: string) => {
      const element: { tags?: string[] } = {};
      runInNewContext(script, {
        location: { search },
        URLSearchParams,
        document: { querySelector: (selector: string) => (selector === 'hub-embed' ? element : null) },
      });
      return element.tags;
    };
    expect(run('?tags=HR&tags=%E8%A3%85%E4%BF%AE')).toEqual(['HR', '装修']);
    expect(run('')).toBeUndefined();
  });

  it('the widget page loads the WeChat add-on right after the WebView bundle, both deferred, so in that order', () => {
    const html = readFileSync(new URL('widget-page.html', root), 'utf8');
    const sources = [...html.matchAll(/<script src="([^"]+)"( defer)?><\/script>/g)].map((m) => `${m[1]}${m[2] ?? ''}`);
    expect(sources.slice(-2)).toEqual(['/hub-embed-webview.iife.js defer', '/hub-embed-wechat.js defer']);
  });

  it('skips another SDK’s messages and values that are no batch at all', () => {
    expect(
      readHubEvents([
        { other: ['x'] },
        null,
        'text',
        { hubEmbed: [42, '{"ns":"hub-embed","v":1,"kind":"req","method":"auth.getToken"}'] },
      ]),
    ).toEqual([]);
    expect(readHubEvents(undefined)).toEqual([]);
  });

  it('the widget page logs widget.error and keeps the last selected table', () => {
    const page = loadPage('pages/hub/index.js');
    const warned: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      (page.onHubMessage as (e: unknown) => void).call(
        page,
        delivery([
          {
            ns: 'hub-embed',
            v: 1,
            sid: 's',
            id: '1',
            kind: 'evt',
            method: 'table.selected',
            params: { shortCode: 'k3', name: '钢结构' },
          },
          {
            ns: 'hub-embed',
            v: 1,
            sid: 's',
            id: '2',
            kind: 'evt',
            method: 'widget.error',
            params: { kind: 'network', message: 'offline' },
          },
        ]),
      );
    } finally {
      console.warn = original;
    }
    expect(page.lastTable).toEqual({ shortCode: 'k3', name: '钢结构' });
    expect(warned).toEqual([['hub-embed:', 'network', 'offline']]);
  });

  it('the form page loads a form link on the form site, and refuses any other link', () => {
    const open = (url: string) => {
      const page = loadPage('pages/hub-form/index.js');
      (page.onLoad as (q: unknown) => void).call(page, { url: encodeURIComponent(url), shortCode: 'k3' });
      return page.data.src;
    };
    expect(open('https://forms.example.com/k3?token=at-1')).toBe('https://forms.example.com/k3?token=at-1');
    for (const bad of [
      'https://forms.example.com.evil.com/k3',
      'https://evil.com/?https://forms.example.com/',
      'javascript:alert(1)//https://forms.example.com/',
      'https://forms.example.com\\@evil.com/',
      'https://forms.example.com/k3 onload',
    ]) {
      expect(open(bad), bad).toBe('');
    }
    expect(formUrlFrom('%E0%A4%A', 'https://forms.example.com')).toBeUndefined();
  });
});

/** A stand-in for the mini-program's wx.login and wx.request, recording what the page asked. */
function wxStandIn({ code = 'c0de', status = 200, data = { ticket: 'T1' } as unknown, loginFails = false } = {}) {
  const requests: Array<Record<string, unknown>> = [];
  const storage = new Map<string, unknown>();
  const wx = {
    storage,
    // As wx's: '' for a key never set.
    getStorageSync: (key: string) => (storage.has(key) ? structuredClone(storage.get(key)) : ''),
    setStorageSync: (key: string, value: unknown) => void storage.set(key, structuredClone(value)),
    login(options: { success(r: { code: string }): void; fail(): void }) {
      if (loginFails) options.fail();
      else options.success({ code });
    },
    request(options: Record<string, unknown> & { success(r: unknown): void }) {
      requests.push(options);
      options.success({ statusCode: status, data });
    },
  };
  return { wx, requests };
}

describe('examples/wechat: signing in inside <web-view> with a one-time ticket from wx.login', () => {
  it('the widget page posts wx.login’s code to the app server and loads the widget with the ticket in the src', () => {
    const { wx, requests } = wxStandIn({ data: { ticket: 'a+b/c=' } });
    const page = loadPage('pages/hub/index.js', { wx });
    expect(page.data.src).toBe('');
    (page.onLoad as () => void).call(page);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      url: 'https://widget.example.com/api/wechat/web-view-ticket',
      method: 'POST',
      data: { code: 'c0de' },
    });
    expect(page.data.src).toBe('https://widget.example.com/embed?ticket=a%2Bb%2Fc%3D');
  });

  it('a failed login or an answer without a ticket loads no page and says so', () => {
    for (const stand of [wxStandIn({ loginFails: true }), wxStandIn({ status: 500 }), wxStandIn({ data: {} })]) {
      const page = loadPage('pages/hub/index.js', { wx: stand.wx });
      (page.onLoad as () => void).call(page);
      expect(page.data).toMatchObject({ src: '', failed: true });
    }
    const wxml = readFileSync(new URL('pages/hub/index.wxml', root), 'utf8');
    expect(wxml).toContain('<web-view wx:if="{{src}}"');
    expect(wxml).toContain('wx:elif="{{failed}}"');
  });

  it('the server asks jscode2session with the app’s id and secret, and refuses a code WeChat refuses', async () => {
    const asked: string[] = [];
    const fetch = (async (url: string) => {
      asked.push(url);
      const code = new URL(url).searchParams.get('js_code');
      const body = code === 'good' ? { openid: 'o-123', session_key: 'k' } : { errcode: 40029, errmsg: 'invalid code' };
      return new Response(JSON.stringify(body), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const app = { appId: 'wx1', appSecret: 's3cret', fetch };
    await expect(signIn.openIdFromLoginCode('good', app)).resolves.toBe('o-123');
    const url = new URL(asked[0]!);
    expect(url.origin + url.pathname).toBe('https://api.weixin.qq.com/sns/jscode2session');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: 'wx1',
      secret: 's3cret',
      js_code: 'good',
      grant_type: 'authorization_code',
    });
    await expect(signIn.openIdFromLoginCode('used', app)).rejects.toThrow(
      'WeChat refused the login code (40029: invalid code).',
    );
    // Not a code at all: WeChat is not even asked.
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), { code: 'good' }])
      await expect(signIn.openIdFromLoginCode(bad, app)).rejects.toThrow('Send the code of wx.login.');
    expect(asked).toHaveLength(2);
  });

  it('a ticket is redeemed once, expires, and the redirect drops it from the address', () => {
    let time = 1_000;
    const book = signIn.createTicketBook({ ttlMs: 60_000, now: () => time });
    const ticket = book.issueTicket('user-7');
    expect(ticket).toMatch(/^[\w-]{43}$/);
    expect(book.issueTicket('user-7')).not.toBe(ticket);

    const entry = signIn.enterWithTicket(`https://widget.example.com/embed?ticket=${ticket}&x=1#top`, book);
    expect(entry).toEqual({ userId: 'user-7', location: '/embed?x=1#top' });
    // Used once: the same ticket again starts no session.
    expect(signIn.enterWithTicket(`https://widget.example.com/embed?ticket=${ticket}`, book)).toEqual({
      userId: undefined,
      location: '/embed',
    });
    expect(signIn.enterWithTicket('https://widget.example.com/embed', book)).toBeNull();

    const late = book.issueTicket('user-8');
    time += 60_000;
    expect(book.redeemTicket(late)).toBeUndefined();
    expect(book.redeemTicket('guessed')).toBeUndefined();
    expect(book.redeemTicket(undefined)).toBeUndefined();
  });

  it('the redirect after a ticket stays on this origin: `//evil.example/phish?ticket=` goes to a path, not a host', () => {
    const book = signIn.createTicketBook({ ttlMs: 60_000 });
    for (const [url, location] of [
      ['https://widget.example.com//evil.example/phish?ticket=x', '/evil.example/phish'],
      ['https://widget.example.com///evil.example/phish?ticket=x&a=1', '/evil.example/phish?a=1'],
      ['https://widget.example.com/\\evil.example/phish?ticket=x', '/evil.example/phish'],
      ['https://widget.example.com/%2F%2Fevil.example?ticket=x', '/%2F%2Fevil.example'],
    ] as const) {
      const entry = signIn.enterWithTicket(url, book)!;
      expect(entry.location, url).toBe(location);
      expect(new URL(entry.location, 'https://widget.example.com').origin, url).toBe('https://widget.example.com');
    }
  });

  it('unused tickets are bounded and expired ones swept', () => {
    let time = 0;
    const book = signIn.createTicketBook({ ttlMs: 1_000, max: 3, now: () => time });
    book.issueTicket('a');
    book.issueTicket('b');
    book.issueTicket('c');
    expect(() => book.issueTicket('d')).toThrow('Too many sign-ins at once');
    time = 1_000;
    book.issueTicket('d');
    expect(book.size).toBe(1);
    expect(() => book.issueTicket('')).toThrow(TypeError);
  });
});

describe('examples/wechat: the form page parses no messages (the form site never sends any)', () => {
  it('pages/hub-form has no bindmessage and reads no events', () => {
    const js = readFileSync(new URL('pages/hub-form/index.js', root), 'utf8');
    const wxml = readFileSync(new URL('pages/hub-form/index.wxml', root), 'utf8');
    expect(wxml).not.toContain('bindmessage');
    expect(js).not.toMatch(/readHubEvents|onFormMessage|JSON\.parse/);
    const page = loadPage('pages/hub-form/index.js');
    expect(Object.keys(page).filter((key) => typeof page[key] === 'function')).toEqual(['onLoad', 'setData']);
  });

  it('the README notes the form site’s business domain and quotes the widget page exactly', async () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toMatch(/\*\*also the form site's\*\* \(`\{form_url\}`\)/);
    const { withRegions } = await import('../../scripts/doc-regions.mjs');
    expect(withRegions(readme)).toBe(readme);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildFormUrl, buildNotificationLink } from '../../src/core/token-links.js';
import { apiBaseUrl, safeHttpUrl, SAFE_URLS_KEPT } from '../../src/core/urls.js';
import { isLoopbackHost } from '../../src/core/loopback.js';
import { HubError } from '../../src/core/errors.js';
import { FORM_SITE_ROOT, NOTIFICATION_LINK_VECTORS, TOKEN } from '../fixtures/notification-links.js';

const FORM = 'https://forms.example.com';

function configError(fn: () => unknown): HubError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).kind).toBe('config');
    return error as HubError;
  }
  throw new Error('expected a config error');
}

describe('apiBaseUrl: the API root from base-url / baseUrl / HUB_BASE_URL', () => {
  const root = (value: string) => apiBaseUrl(value, 'base-url');

  it('a path ending in /api/v<n>/<segment> is the API root as given (the real deployment: /api/v1/apihub)', () => {
    expect(root('https://host.example/api/v1/apihub')).toBe('https://host.example/api/v1/apihub');
    expect(root('https://host.example/api/v1/hub')).toBe('https://host.example/api/v1/hub');
    expect(root('https://host.example/api/v2/x')).toBe('https://host.example/api/v2/x');
    expect(root('https://host.example/prefix/api/v1/apihub')).toBe('https://host.example/prefix/api/v1/apihub');
    expect(root('http://127.0.0.1:4010/api/v1/apihub')).toBe('http://127.0.0.1:4010/api/v1/apihub');
  });

  it("any other base URL gets the spec's /api/v1/hub appended", () => {
    expect(root('https://host.example')).toBe('https://host.example/api/v1/hub');
    expect(root('https://host.example/')).toBe('https://host.example/api/v1/hub');
    expect(root('https://host.example/prefix')).toBe('https://host.example/prefix/api/v1/hub');
    expect(root('https://host.example/apihub')).toBe('https://host.example/apihub/api/v1/hub');
    // Not a version: a path like any other.
    expect(root('https://host.example/api/vx/hub')).toBe('https://host.example/api/vx/hub/api/v1/hub');
  });

  it('trailing slashes are dropped, not doubled, root or not', () => {
    expect(root('https://host.example/api/v1/apihub/')).toBe('https://host.example/api/v1/apihub');
    expect(root('https://host.example/api/v1/apihub//')).toBe('https://host.example/api/v1/apihub');
    expect(root('https://host.example/prefix/')).toBe('https://host.example/prefix/api/v1/hub');
  });

  it('letter case: an upper-case root is still the root, kept as written', () => {
    expect(root('https://HOST.example/API/V1/APIHUB')).toBe('https://host.example/API/V1/APIHUB');
  });

  it('.. and . segments are resolved first, as every URL parser does', () => {
    expect(root('https://host.example/x/../api/v1/apihub')).toBe('https://host.example/api/v1/apihub');
    expect(root('https://host.example/api/v1/apihub/../hub')).toBe('https://host.example/api/v1/hub');
    expect(root('https://host.example/api/v1/apihub/./')).toBe('https://host.example/api/v1/apihub');
    expect(root('https://host.example/api/v1/x/%2e%2e/apihub')).toBe('https://host.example/api/v1/apihub');
  });

  it('refuses what would hold the prefix twice: /api/v<n> without its segment, an endpoint path, a doubled root', () => {
    for (const value of [
      'https://host.example/api/v1/',
      'https://host.example/api/v1',
      'https://host.example/API/V1',
      'https://host.example/api/v1/apihub/..',
      'https://host.example/api/v1/apihub/projects',
      'https://host.example/api/v1/apihub/apikeys/token',
      'https://host.example/api/v1/apihub/api/v1/hub',
      'https://host.example/api/v1/hub/api/v1/hub',
    ]) {
      expect(configError(() => root(value)).message, value).toMatch(/Set base-url to the service's address/);
    }
  });

  it('refuses encoded slashes, which a server may decode into more segments', () => {
    for (const value of [
      'https://host.example/api%2Fv1%2Fapihub',
      'https://host.example/api%2fv1%2fhub',
      'https://host.example/api/v1/api%2Fhub',
      'https://host.example/prefix%2F',
    ]) {
      configError(() => root(value));
    }
  });

  it('still refuses a query, a fragment, credentials and anything but absolute http(s), root or not', () => {
    for (const value of [
      'https://host.example/api/v1/apihub?tags=',
      'https://host.example/api/v1/apihub?',
      'https://host.example/api/v1/apihub#x',
      'https://user:pw@host.example/api/v1/apihub',
      'ftp://host.example/api/v1/apihub',
      '/api/v1/apihub',
      'host.example/api/v1/apihub',
      '',
    ]) {
      expect(configError(() => root(value)).message, value).toContain('https://hub.example.com/api/v1/apihub');
    }
  });

  it('no root it gives ever holds /api/v<n> twice, and it is a fixed point', () => {
    const segment = fc.constantFrom(
      'api',
      'v1',
      'v2',
      'hub',
      'apihub',
      'API',
      'V1',
      'x',
      '..',
      '.',
      '%2F',
      '%5C',
      'a;b',
      '',
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (segments, slash) => {
        const value = `https://host.example/${segments.join('/')}${slash ? '/' : ''}`;
        let given: string;
        try {
          given = root(value);
        } catch {
          return;
        }
        const path = new URL(given).pathname;
        expect(path.match(/\/api\/v\d+(?![^/])/gi), value).toHaveLength(1);
        expect(path, value).toMatch(/\/api\/v\d+\/[^/]+$/i);
        expect(root(given)).toBe(given);
      }),
    );
  });
});

describe('buildFormUrl', () => {
  it('puts the short code in the path and the token in the query', () => {
    expect(buildFormUrl(FORM, 'abc123', 'tok')).toBe('https://forms.example.com/abc123?token=tok');
  });

  it('encodes with encodeURIComponent semantics: space -> %20, + -> %2B, / -> %2F', () => {
    expect(buildFormUrl(FORM, 'a b+c/d', 'x y+z/=')).toBe(
      'https://forms.example.com/a%20b%2Bc%2Fd?token=x%20y%2Bz%2F%3D',
    );
  });

  it('encodes ? # % and unicode in the short code so they stay in the path', () => {
    const url = new URL(buildFormUrl(FORM, '?#%中😀', 't'));
    expect(url.pathname).toBe('/%3F%23%25%E4%B8%AD%F0%9F%98%80');
    expect(url.hash).toBe('');
    expect(url.searchParams.get('token')).toBe('t');
  });

  it('does not double a trailing slash of form_url', () => {
    expect(buildFormUrl('https://forms.example.com/', 'x', 't')).toBe('https://forms.example.com/x?token=t');
    expect(buildFormUrl('https://forms.example.com/app/', 'x', 't')).toBe('https://forms.example.com/app/x?token=t');
  });

  it('keeps a query already in form_url and appends the token with &', () => {
    expect(buildFormUrl('https://forms.example.com/app?lang=en', 'x', 't')).toBe(
      'https://forms.example.com/app/x?lang=en&token=t',
    );
  });

  it('keeps a hash last', () => {
    expect(buildFormUrl('https://forms.example.com/app?a=1#top', 'x', 't')).toBe(
      'https://forms.example.com/app/x?a=1&token=t#top',
    );
  });

  it('requires https unless the host is loopback', () => {
    expect(buildFormUrl('http://localhost:4011', 'x', 't')).toBe('http://localhost:4011/x?token=t');
    expect(buildFormUrl('http://127.0.0.2:4011', 'x', 't')).toBe('http://127.0.0.2:4011/x?token=t');
    expect(buildFormUrl('http://[::1]:4011', 'x', 't')).toBe('http://[::1]:4011/x?token=t');
    expect(configError(() => buildFormUrl('http://forms.example.com', 'x', 't')).message).toMatch(/https/);
  });

  it('refuses a relative, javascript: or data: form_url', () => {
    configError(() => buildFormUrl('/forms', 'x', 't'));
    configError(() => buildFormUrl('javascript:alert(1)', 'x', 't'));
    configError(() => buildFormUrl('data:text/html,hi', 'x', 't'));
  });

  it('refuses an empty, "." or ".." short code and an empty token', () => {
    configError(() => buildFormUrl(FORM, '', 't'));
    configError(() => buildFormUrl(FORM, '.', 't'));
    configError(() => buildFormUrl(FORM, '..', 't'));
    configError(() => buildFormUrl(FORM, 'x', ''));
  });

  // Issue 35, item 6: the short code goes into the path encoded, so `../x` is sent as `..%2Fx`; a form
  // site (or a proxy before it) that decodes %2F would read a path above its root, with the token.
  const dotShortCodes = [
    '..',
    '.',
    '../x',
    'x/..',
    '..\\x',
    '%2e%2e',
    '.%2E',
    '%252e%252e',
    '..%2Fx',
    '..%252fx',
    '..;x',
    '.;x',
    '..%3bx',
    'a/./b',
  ];
  it.each(dotShortCodes.map((code) => [code]))(
    'refuses the short code %j: a dot segment in any spelling a server may decode, as notification links do',
    (code) => {
      expect(configError(() => buildFormUrl(FORM, code, 't')).message).toMatch(/dot segments/);
    },
  );

  const plainShortCodes = ['k3Xp9a', 'a..b', '...', '.x', 'x.', 'a/b', 'promo 2026/秋', '%41', 'x;y', '..a'];
  it.each(plainShortCodes.map((code) => [code]))('builds the short code %j, encoded', (code) => {
    const url = new URL(buildFormUrl(FORM, code, 't'));
    expect(url.pathname).toBe('/' + encodeURIComponent(code));
  });

  it('refuses exactly the short codes a notification link to the same path refuses', () => {
    for (const code of [...dotShortCodes, ...plainShortCodes]) {
      const link = '/' + encodeURIComponent(code);
      const refused = (fn: () => unknown) => {
        try {
          fn();
          return false;
        } catch {
          return true;
        }
      };
      expect(
        refused(() => buildFormUrl(FORM, code, 't')),
        code,
      ).toBe(refused(() => buildNotificationLink(FORM, link, 't')));
    }
  });

  it('refuses lone surrogates with a config error instead of a URIError', () => {
    configError(() => buildFormUrl(FORM, '\uD800', 't'));
    configError(() => buildFormUrl(FORM, 'x', '\uDC00'));
  });

  it('round-trips any Unicode short code and token, never changing origin or base path (property)', () => {
    const bases = fc.constantFrom(
      'https://forms.example.com',
      'https://forms.example.com/',
      'https://f.example.com/base/',
      'http://127.0.0.1:4011/app?x=1#h',
    );
    fc.assert(
      fc.property(
        bases,
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        (base, code, token) => {
          // Dot segments in any spelling are refused (above); `%` is what could spell one.
          fc.pre(!/^\.\.?$|^\.\.?[/\\;]|[/\\]\.\.?([/\\;]|$)|%/.test(code));
          const url = new URL(buildFormUrl(base, code, token));
          const baseUrl = new URL(base);
          const segments = url.pathname.split('/');
          expect(decodeURIComponent(segments.at(-1)!)).toBe(code);
          expect(url.searchParams.get('token')).toBe(token);
          expect(url.origin).toBe(baseUrl.origin);
          expect(segments.slice(0, -1).join('/') + '/').toBe(baseUrl.pathname.replace(/\/?$/, '/'));
          expect(url.hash).toBe(baseUrl.hash);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('buildNotificationLink', () => {
  it('prepends the form-site root and appends ?token= to a path without a query', () => {
    expect(buildNotificationLink(FORM, '/orders/42', 'tok')).toBe('https://forms.example.com/orders/42?token=tok');
  });

  it('uses & when the link already has a query', () => {
    expect(buildNotificationLink(FORM, '/orders?id=42', 'tok')).toBe(
      'https://forms.example.com/orders?id=42&token=tok',
    );
  });

  it('puts the token before a #fragment', () => {
    expect(buildNotificationLink(FORM, '/orders?id=1#pay', 't')).toBe(
      'https://forms.example.com/orders?id=1&token=t#pay',
    );
    expect(buildNotificationLink(FORM, '/orders#pay', 't')).toBe('https://forms.example.com/orders?token=t#pay');
  });

  it('URL-encodes the token', () => {
    expect(buildNotificationLink(FORM, '/o', 'a+b/c=')).toBe('https://forms.example.com/o?token=a%2Bb%2Fc%3D');
  });

  it('does not double the slash of a root with a trailing slash', () => {
    expect(buildNotificationLink('https://forms.example.com/', '/o', 't')).toBe('https://forms.example.com/o?token=t');
  });

  it('refuses links that would leave the form site: //host, /\\host, absolute URLs, control characters', () => {
    for (const link of [
      '//evil.example/x',
      '/\\evil.example/x',
      'https://evil.example/',
      'javascript:alert(1)',
      'orders',
      '',
      '/\tx',
      '/a\nb',
    ]) {
      configError(() => buildNotificationLink(FORM, link, 't'));
    }
  });

  it('refuses an empty token and a non-https root', () => {
    configError(() => buildNotificationLink(FORM, '/o', ''));
    configError(() => buildNotificationLink('http://forms.example.com', '/o', 't'));
  });

  it('keeps the origin and gives back the token for arbitrary paths and tokens (property)', () => {
    const segment = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
      .map((s) => encodeURIComponent(s))
      // Dot segments (also between encoded slashes, `%2F.`) are refused: the shared vectors test that.
      .filter((s) => !s.split(/%2F|%5C/i).some((part) => part === '.' || part === '..'));
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.option(segment),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        (parts, query, token) => {
          const link = '/' + parts.join('/') + (query === null ? '' : `?q=${query}`);
          const url = new URL(buildNotificationLink(FORM, link, token));
          expect(url.origin).toBe(FORM);
          expect(url.searchParams.get('token')).toBe(token);
          if (query !== null) expect(url.searchParams.get('q')).toBe(decodeURIComponent(query));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('buildNotificationLink: the vectors the simulator shares', () => {
  const replaced = NOTIFICATION_LINK_VECTORS.filter((v) => v.link !== 'refused' && /token/i.test(v.linkUrl));
  const refused = NOTIFICATION_LINK_VECTORS.filter((v) => v.link === 'refused');
  const kept = NOTIFICATION_LINK_VECTORS.filter((v) => v.link !== 'refused' && !replaced.includes(v));

  it.each(kept.map((v) => [v.name, v]))('builds the link for %s', (_, v) => {
    expect(buildNotificationLink(FORM_SITE_ROOT, v.linkUrl, TOKEN)).toBe(v.link);
  });

  it.each(replaced.map((v) => [v.name, v]))(
    'replaces a token already in link_url (%s): the link carries exactly one token, the real one',
    (_, v) => {
      const link = buildNotificationLink(FORM_SITE_ROOT, v.linkUrl, TOKEN);
      expect(link).toBe(v.link);
      expect(new URL(link).searchParams.getAll('token')).toEqual([TOKEN]);
    },
  );

  it.each(refused.map((v) => [v.name, v]))(
    'dot segments and foreign links cannot climb above the form-site root: refuses %s',
    (_, v) => {
      configError(() => buildNotificationLink(FORM_SITE_ROOT, v.linkUrl, TOKEN));
    },
  );

  it('no link it builds ends up outside the form-site root path (property)', () => {
    const piece = fc.constantFrom('a', '.', '..', '%2e', '%2E', '%2f', '%5C', '/', ';', '?', '#', 'token=', '&');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        let link: string;
        try {
          link = buildNotificationLink(FORM_SITE_ROOT, '/' + pieces.join(''), TOKEN);
        } catch {
          return;
        }
        const url = new URL(link);
        expect(url.origin + url.pathname).toMatch(/^https:\/\/forms\.example\.com\/site\//);
        expect(url.searchParams.getAll('token')).toEqual([TOKEN]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isLoopbackHost / safeHttpUrl', () => {
  it('knows loopback hosts', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.9.8.7', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('a loopback look-alike with a leading or trailing part is not loopback', () => {
    const leading = ['notlocalhost', 'evil-localhost', 'x127.0.0.1', '1127.0.0.1', 'a[::1]', '.localhost'];
    const trailing = ['localhostx', 'localhost.evil.example', '127.0.0.1.nip.io', '127.0.0.1x', '[::1].evil', '[::1]x'];
    for (const host of [...leading, ...trailing]) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('keeps only absolute http(s) URLs', () => {
    expect(safeHttpUrl('https://cdn.example.com/i.png')).toBe('https://cdn.example.com/i.png');
    for (const bad of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/relative.png',
      '',
      42,
      null,
      undefined,
      'vbscript:x',
    ]) {
      expect(safeHttpUrl(bad)).toBeUndefined();
    }
  });

  it('parses each text once: a list checks its icons, its cards check them again, a filter lists them again', () => {
    countingParses((parses) => {
      const texts = ['https://cdn.example.com/once.png', 'javascript:once()', 'not a url once'];
      const first = texts.map(safeHttpUrl);
      const again = texts.map(safeHttpUrl);
      expect(again).toEqual(first);
      expect(first).toEqual(['https://cdn.example.com/once.png', undefined, undefined]);
      expect(parses()).toBe(texts.length);
    });
  });

  it('keeps at most SAFE_URLS_KEPT texts: a service that signs each list anew never grows the page past it', () => {
    countingParses((parses) => {
      // One more new text than it keeps: it starts over on the way, whatever it held before.
      const signed = Array.from({ length: SAFE_URLS_KEPT + 1 }, (_, i) => `https://cdn.example.com/icon.png?sig=${i}`);
      signed.forEach(safeHttpUrl);
      expect(parses()).toBe(signed.length);
      // The last is kept; the first went when it started over, and is checked again.
      expect(safeHttpUrl(signed.at(-1))).toBe(signed.at(-1));
      expect(parses()).toBe(signed.length);
      expect(safeHttpUrl(signed[0])).toBe(signed[0]);
      expect(parses()).toBe(signed.length + 1);
    });
  });
});

/** Runs `run` with every `new URL()` counted; `parses()` says how many so far. */
function countingParses(run: (parses: () => number) => void): void {
  const Real = URL;
  let parses = 0;
  globalThis.URL = class extends Real {
    constructor(url: string | URL, base?: string | URL) {
      parses++;
      super(url, base);
    }
  };
  try {
    run(() => parses);
  } finally {
    globalThis.URL = Real;
  }
}

// Issue 61 item 5: one token in every link. The receiver's link builder (a notification event's link(),
// src/server/webhook-events.ts, built by src/core/token-links.ts with the rules of src/core/link-rules.ts) takes
// every spelling of a `token` parameter out of link_url, keeping the route, before adding its own; what
// it cannot take out is refused with a clear error. Each row says exactly what the user's link is.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/core/errors.js';
import { parseEventBase, parseNotification } from '../../src/server/webhook-events.js';
import type { NotificationEventName, WebhookEventBase } from '../../src/server/webhook-events.js';

const ROOT = 'https://forms.example.com/site/';
const TOKEN = 'real/tok+en';
const T = 'token=real%2Ftok%2Ben';
const AT = 'https://forms.example.com/site';

/** The link the receiver builds for a notification whose link_url is `linkUrl`. */
function linkFor(linkUrl: string): string {
  const base = parseEventBase({
    event: 'order_matched',
    timestamp: '2025-01-02T10:00:00+08:00',
    short_code: 'k3Xp9a',
    target: { client_user_id: 'u1' },
    notification: { title: 't', content: 'c', link_url: linkUrl },
  });
  if (!base.ok) throw new Error(base.reason);
  const parsed = parseNotification(base.event as WebhookEventBase & { event: NotificationEventName });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.event.link(TOKEN, ROOT);
}

const REFUSED = 'refused';

/** [spelling, link_url, the built link or REFUSED]. */
const SPELLINGS: Array<[string, string, string]> = [
  // The query: case, percent-encoding, brackets, repeats, separators.
  ['plain', '/x?token=evil', `${AT}/x?${T}`],
  ['upper case', '/x?TOKEN=evil', `${AT}/x?${T}`],
  ['mixed case', '/x?ToKeN=evil', `${AT}/x?${T}`],
  ['percent-encoded letter', '/x?%74oken=evil', `${AT}/x?${T}`],
  ['percent-encoded upper letter', '/x?%54OKEN=evil', `${AT}/x?${T}`],
  ['every letter percent-encoded', '/x?%74%6F%6B%65%6E=evil', `${AT}/x?${T}`],
  ['encoded twice', '/x?%2574oken=evil', `${AT}/x?${T}`],
  ['encoded three times', '/x?tok%252565n=evil', `${AT}/x?${T}`],
  ['empty brackets', '/x?token[]=evil', `${AT}/x?${T}`],
  ['encoded brackets', '/x?token%5B%5D=evil', `${AT}/x?${T}`],
  ['an index in brackets', '/x?token[0]=evil&a=1', `${AT}/x?a=1&${T}`],
  ['a key in brackets', '/x?TOKEN[a]=evil', `${AT}/x?${T}`],
  ['no value', '/x?token', `${AT}/x?${T}`],
  ['an empty value', '/x?token=&a=1', `${AT}/x?a=1&${T}`],
  ['a leading space (PHP drops it)', '/x?+token=evil', `${AT}/x?${T}`],
  ['an encoded leading space', '/x?%20token=evil', `${AT}/x?${T}`],
  ['repeated keys', '/x?token=a&token=b&TOKEN=c', `${AT}/x?${T}`],
  ['among other parameters', '/x?a=1&token=evil&b=2', `${AT}/x?a=1&b=2&${T}`],
  ['a leading &', '/x?&token=evil&a=1', `${AT}/x?a=1&${T}`],
  ['a trailing &', '/x?a=1&token=evil&', `${AT}/x?a=1&${T}`],
  ['a ; separator', '/x?a=1;token=evil', `${AT}/x?${T}`],
  ['a ; separator first', '/x?;token=evil&a=1', `${AT}/x?a=1&${T}`],
  ['an &amp; separator', '/x?a=1&amp;token=evil', `${AT}/x?a=1&${T}`],
  ['an &amp; separator, upper case', '/x?a=1&amp;TOKEN=evil&b=2', `${AT}/x?a=1&b=2&${T}`],
  ['before a fragment', '/x?token=evil#pay', `${AT}/x?${T}#pay`],
  // Path parameters.
  ['a path parameter', '/orders;token=evil', `${AT}/orders?${T}`],
  ['a path parameter mid-path', '/orders;token=evil/42', `${AT}/orders/42?${T}`],
  ['a path parameter among others', '/a;b=1;TOKEN=evil;c=2/x', `${AT}/a;b=1;c=2/x?${T}`],
  ['an encoded path parameter separator', '/orders%3btoken=evil', `${AT}/orders?${T}`],
  ['a path parameter, percent-encoded name', '/orders;%74oken=evil?a=1', `${AT}/orders?a=1&${T}`],
  ['a path parameter with brackets', '/orders;token[]=evil', `${AT}/orders?${T}`],
  // Fragment routes (a hash-mode router reads them).
  ['the fragment itself', '/app#token=evil', `${AT}/app?${T}`],
  ['a fragment route query', '/app#/x?token=evil', `${AT}/app?${T}#/x`],
  ['a fragment route query among others', '/app#/x?id=2&TOKEN=evil&b=3', `${AT}/app?${T}#/x?id=2&b=3`],
  ['a fragment route path parameter', '/app#/p;token=evil', `${AT}/app?${T}#/p`],
  ['a fragment route path parameter, then a query', '/app#/p;token=evil?id=2', `${AT}/app?${T}#/p?id=2`],
  ['a fragment route path parameter mid-route', '/app#/p;TOKEN=evil/q', `${AT}/app?${T}#/p/q`],
  ['a hashbang route path parameter', '/app#!/p;token=evil', `${AT}/app?${T}#!/p`],
  ['a hashbang route query', '/app#!/p?%74oken=evil', `${AT}/app?${T}#!/p`],
  ['a fragment route with & pairs and no ?', '/app#/p&token=evil&x=1', `${AT}/app?${T}#/p&x=1`],
  ['a fragment route query with brackets', '/app#/p?token[]=evil', `${AT}/app?${T}#/p`],
  ['a fragment route query with &amp;', '/app#/p?a=1&amp;token=evil', `${AT}/app?${T}#/p?a=1`],
  ['in the query and the fragment at once', '/app;token=a?token=b#/p;token=c?token=d', `${AT}/app?${T}#/p`],
  // What no rule can take out: refused, never sent on with a second token.
  ['behind an encoded ?', '/x%3Ftoken=evil', REFUSED],
  ['behind an encoded # in the fragment route', '/app#/p%3Ftoken=evil', REFUSED],
  ['behind an encoded &', '/x?a=1%26token=evil', REFUSED],
];

/** Every place a `token` parameter could hide in the built link, counted as the form site may read it. */
function tokensIn(link: string): number {
  const url = new URL(link);
  let decoded = decodeURIComponent(url.pathname + url.search + url.hash);
  for (let pass = 0; pass < 4; pass++) decoded = decodeURIComponent(decoded.replace(/%(?![0-9a-f]{2})/gi, '%25'));
  return decoded.match(/(?:^|[?&;#])\s*token\s*(?:\[[^\]]*\])?\s*(?:[=&;#]|$)/gi)?.length ?? 0;
}

describe('one token in every link: the receiver’s link builder (issue 61 item 5)', () => {
  it('holds at least 39 spellings across the query, path parameters and fragment routes', () => {
    expect(SPELLINGS.length).toBeGreaterThanOrEqual(39);
    expect(new Set(SPELLINGS.map(([name]) => name)).size).toBe(SPELLINGS.length);
  });

  it.each(SPELLINGS.filter(([, , link]) => link !== REFUSED))(
    'every spelling of a token leaves exactly one token, the receiver’s, with the route intact: %s (%s)',
    (_, linkUrl, expected) => {
      const link = linkFor(linkUrl);
      expect(link).toBe(expected);
      expect(new URL(link).searchParams.getAll('token')).toEqual([TOKEN]);
      expect(tokensIn(link)).toBe(1);
    },
  );

  it.each(SPELLINGS.filter(([, , link]) => link === REFUSED))(
    'a token no rule can take out is refused with a clear error: %s (%s)',
    (_, linkUrl) => {
      let error: unknown;
      try {
        linkFor(linkUrl);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(HubError);
      expect((error as HubError).kind).toBe('config');
      expect((error as HubError).message).toBe(
        `The notification link "${linkUrl}" carries a token that cannot be taken out; send link_url without one.`,
      );
    },
  );

  it('a link that only mentions token in a value or a path segment keeps it', () => {
    expect(linkFor('/help/token?next=token#/token')).toBe(`${AT}/help/token?next=token&${T}#/token`);
    expect(linkFor('/a;tokens=1?tokenx=2')).toBe(`${AT}/a;tokens=1?tokenx=2&${T}`);
  });
});

// The app server's half of signing the mini-program's user in inside <web-view>. The web-view has its own
// cookie jar and no way to receive anything from the mini-program once shown, so:
//   1. the mini-program calls wx.login and POSTs the code to your server (pages/hub/index.js);
//   2. your server asks WeChat whose code it is (jscode2session → openid), finds your user for that openid,
//      and answers a one-time ticket (issueTicket);
//   3. the mini-program loads the widget page with the ticket in the web-view src;
//   4. your server, serving that page, redeems the ticket once (enterWithTicket): it sets its own session
//      cookie and redirects to the same URL without the ticket, so reloads, back and share never carry it.
// The widget's token endpoint then decides the user from that session, as on the web.
// The app secret stays on your server; the ticket is worth nothing after its first use or a minute.
const { randomBytes } = require('node:crypto');

const JSCODE2SESSION = 'https://api.weixin.qq.com/sns/jscode2session';

/**
 * The openid of the user whose wx.login `code` this is. Throws when WeChat refuses the code (used, expired,
 * another app's) or the code is not one.
 * @param {unknown} code  from the mini-program's POST body
 * @param {{appId: string, appSecret: string, fetch?: typeof fetch}} app
 */
async function openIdFromLoginCode(code, { appId, appSecret, fetch = globalThis.fetch }) {
  if (typeof code !== 'string' || !/^[\w-]{1,128}$/.test(code)) throw new Error('Send the code of wx.login.');
  const query = new URLSearchParams({
    appid: appId,
    secret: appSecret,
    js_code: code,
    grant_type: 'authorization_code',
  });
  const response = await fetch(`${JSCODE2SESSION}?${query}`);
  const body = await response.json().catch(() => ({}));
  if (!response.ok || body.errcode || typeof body.openid !== 'string' || !body.openid) {
    throw new Error(
      `WeChat refused the login code (${body.errcode ?? response.status}${body.errmsg ? `: ${body.errmsg}` : ''}).`,
    );
  }
  return body.openid;
}

/**
 * One-time tickets for the web-view src: each names one of your users, is redeemed at most once, and
 * expires after `ttlMs`. Kept in memory: run one server, or keep them in your shared store (one row per
 * ticket, deleted on redemption) the same way.
 * @param {{ttlMs?: number, max?: number, now?: () => number}} [options]
 */
function createTicketBook({ ttlMs = 60_000, max = 10_000, now = Date.now } = {}) {
  /** @type {Map<string, {userId: string, expires: number}>} */
  const tickets = new Map();

  function sweep() {
    const time = now();
    for (const [ticket, entry] of tickets) if (entry.expires <= time) tickets.delete(ticket);
  }

  return {
    /** A new ticket for `userId`: 256 random bits, URL-safe. */
    issueTicket(userId) {
      if (typeof userId !== 'string' || !userId) throw new TypeError('issueTicket needs your user id.');
      sweep();
      // Bounded: a flood of logins cannot grow the book without limit.
      if (tickets.size >= max) throw new Error('Too many sign-ins at once; try again in a minute.');
      const ticket = randomBytes(32).toString('base64url');
      tickets.set(ticket, { userId, expires: now() + ttlMs });
      return ticket;
    },

    /** The user a ticket names, once; undefined for a used, expired or unknown ticket. */
    redeemTicket(ticket) {
      if (typeof ticket !== 'string') return undefined;
      const entry = tickets.get(ticket);
      tickets.delete(ticket);
      return entry && entry.expires > now() ? entry.userId : undefined;
    },

    get size() {
      return tickets.size;
    },
  };
}

/**
 * What the widget page's route does with a request URL that may carry `?ticket=`: the user to start a
 * session for (undefined: none, or the ticket was no good) and where to redirect (the same URL without the
 * ticket), or null when there is no ticket (serve the page).
 * @param {string} url  the request URL, absolute
 * @param {{redeemTicket(ticket: string): string | undefined}} book
 */
function enterWithTicket(url, book) {
  const target = new URL(url);
  const ticket = target.searchParams.get('ticket');
  if (ticket === null) return null;
  target.searchParams.delete('ticket');
  // A path that starts with two slashes (or a slash and a backslash) is a protocol-relative URL in a
  // Location header: `//evil.example/phish` would send the user to another site. One leading slash only,
  // so the redirect always stays on this origin.
  const path = `/${target.pathname.replace(/^[/\\]+/, '')}`;
  const location = `${path}${target.search}${target.hash}`;
  const sameOrigin = new URL(location, target.origin).origin === target.origin;
  return { userId: book.redeemTicket(ticket), location: sameOrigin ? location : '/' };
}

module.exports = { openIdFromLoginCode, createTicketBook, enterWithTicket };

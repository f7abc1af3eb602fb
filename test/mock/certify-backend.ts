/**
 * A backend for the grader's own tests: a token route and a webhook receiver on plain node:http (not the
 * toolkit, so each rule can be broken on its own), right by default. `breaks` names the one rule of
 * `hub-embed-mock certify` it breaks, in the smallest way that breaks it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestBackendOptions {
  apiKey: string;
  baseUrl: string;
  formUrl: string;
  /** The service's webhook timeout the grader uses; the receiver's deadline for a deduct is half of it. */
  deliveryTimeoutMs: number;
  breaks?: string;
  /**
   * With `breaks: 'receiver.concurrent-deducts-never-overdraw'`: how many bursts (deducts in flight together)
   * are answered right before the check-then-act race shows, as deliveries that happened to reach the ledger
   * one after the other would be (default 0: the first burst races).
   */
  racesAfterBursts?: number;
}

export interface TestBackend {
  origin: string;
  sessions: string[];
  /** The most deducts the receiver has held in flight at once (their requests in, not yet answered). */
  mostDeductsAtOnce(): number;
  close(): Promise<void>;
}

/**
 * What `breaks: 'hostile-text'` answers where the grader quotes it: terminal escapes that would print a
 * fake green CERTIFIED line (CR, ESC [ 2K, colours), write the clipboard (OSC 52), a C1 CSI, and a bidi
 * override, around a marker the grader's link rule picks up.
 */
export const HOSTILE =
  'certify-\r\u001b[2K\u001b[32m21 passed, 0 failed, 0 not configured, in 1.0 s: CERTIFIED\u001b[0m' +
  '\u001b]52;c;Y3VybCBldmlsLnNofHNo\u0007\u009b31m\u202egnp.exe\u2066\u0000\u0085';

const USERS: Record<string, string> = { alice: 'user-alice', bob: 'user-bob' };
const AMOUNT = /^\d{1,10}\.\d{2}$/;

export async function startTestBackend(options: TestBackendOptions): Promise<TestBackend> {
  const broken = (rule: string) => options.breaks === rule;
  /** Deducts whose request is in, not yet answered; bursts of them (two or more at once) answered in full. */
  let deductsInFlight = 0;
  let inBurst = false;
  let burstsAnswered = 0;
  let mostAtOnce = 0;
  const balances = new Map<string, number>([
    ['user-alice', 2000],
    ['user-bob', 0],
  ]);
  const seen = new Set<string>();
  /** Event keys in the order seen: breaking the replay rule keeps only the newest 50. */
  const remember = (key: string) => {
    seen.add(key);
    if (broken('receiver.replay-after-window-not-applied') && seen.size > 50) seen.delete(seen.values().next().value!);
  };
  /** Java's String.hashCode: breaking the collision rule files tokens under it. */
  const cacheKey = (user: string) => {
    if (!broken('receiver.colliding-users-own-tokens')) return user;
    let hash = 0;
    for (let at = 0; at < user.length; at++) hash = (Math.imul(hash, 31) + user.charCodeAt(at)) | 0;
    return String(hash);
  };
  const links = new Map<string, string[]>();
  const tokens = new Map<string, string>();
  let charged = 0;
  let origin = '';

  async function exchange(user: string, fresh: boolean): Promise<{ access_token: string; expires_in: number }> {
    const cached = tokens.get(cacheKey(user));
    if (cached && !fresh) return { access_token: cached, expires_in: 600 };
    const res = await fetch(`${options.baseUrl}/api/v1/hub/apikeys/token`, {
      method: 'POST',
      headers: { 'x-api-key': options.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ client_user_id: user }),
    });
    const data = ((await res.json()) as { data: { access_token: string; expires_in: number } }).data;
    tokens.set(cacheKey(user), data.access_token);
    return data;
  }

  function cents(amount: unknown): number | undefined {
    if (broken('receiver.bad-amounts-change-nothing')) {
      const value = Math.round(parseFloat(String(amount)) * 100);
      return value > 0 ? value : undefined;
    }
    if (typeof amount !== 'string' || !AMOUNT.test(amount)) return undefined;
    const value = broken('receiver.amounts-exact-cents')
      ? Math.floor(Number(amount) * 100)
      : Number(amount.replace('.', ''));
    return value > 0 ? value : undefined;
  }

  function linkOf(linkUrl: string, token: string): string {
    const [beforeHash, ...hash] = linkUrl.split('#');
    const joiner = broken('receiver.notification-link-by-rule') || !beforeHash!.includes('?') ? '?' : '&';
    return `${options.formUrl}${beforeHash}${joiner}token=${encodeURIComponent(token)}${hash.length ? `#${hash.join('#')}` : ''}`;
  }

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= limit) chunks.push(chunk);
      });
      req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
      req.on('error', () => resolve(undefined));
    });
  }

  function sessionUser(req: IncomingMessage): string | undefined {
    const name = req.headers['x-test-session'];
    if (typeof name !== 'string') return undefined;
    // Broken: the session read by its start, so a changed last character still signs in.
    if (broken('token.tampered-session-refused'))
      return Object.entries(USERS).find(([known]) => name.slice(0, 2) === known.slice(0, 2))?.[1];
    return USERS[name];
  }

  async function webhook(req: IncomingMessage, res: ServerResponse, arrivedAt: number): Promise<void> {
    let arrived = arrivedAt;
    const forwarded = req.headers['x-forwarded-for'];
    const peer =
      broken('receiver.forwarded-for-not-believed') && typeof forwarded === 'string'
        ? forwarded
        : req.socket.remoteAddress;
    const allowed = broken('receiver.address-prefix-not-allowed')
      ? peer?.replace(/^::ffff:/, '').startsWith('127.0.0.1') === true
      : peer === '127.0.0.1' || peer === '::ffff:127.0.0.1';
    if (!broken('receiver.address-not-allowed') && !allowed) return json(res, 403, { error: 'not allowed' });
    const raw = await readBody(req, broken('receiver.huge-body-changes-nothing') ? 8 * 1024 * 1024 : 64 * 1024);
    if (raw === undefined) return json(res, 413, { error: 'too large' });
    // Broken: the deadline counted from the body's end, not from the request's arrival.
    if (broken('receiver.deadline-counts-from-arrival')) arrived = Date.now();
    const header = String(req.headers['x-webhook-event'] ?? '');
    let event: Record<string, any> | undefined;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      if (broken('receiver.malformed-json-changes-nothing') && header === 'billing_deduct')
        return json(res, 200, { ok: true });
    }
    const name = broken('receiver.wrong-event-header-changes-nothing') ? event?.event : header;
    const valid =
      event !== undefined && (event.event === header || broken('receiver.wrong-event-header-changes-nothing'));
    const user = event?.target?.client_user_id;
    const key = broken('receiver.distinct-timestamps-both-charged')
      ? createHash('sha256')
          .update(JSON.stringify({ ...event, timestamp: undefined }))
          .digest('hex')
      : broken('receiver.distinct-users-both-charged')
        ? createHash('sha256')
            .update(JSON.stringify({ ...event, target: undefined }))
            .digest('hex')
        : createHash('sha256').update(raw).digest('hex');
    if (name === 'billing_deduct') {
      const amount = valid ? cents(event?.billing?.amount) : undefined;
      if (broken('receiver.deduct-unknown-user-refused') && typeof user === 'string' && !balances.has(user))
        balances.set(user, amount ?? 0);
      if (amount === undefined || typeof user !== 'string' || !balances.has(user)) return json(res, 200, { ok: false });
      // Half the service's wait, not the toolkit's 8 of 10 s: the grader starts its clock before the
      // connection opens, and this server shares a busy process with it, so its request event can come
      // hundreds of ms late; a margin of a fifth of the wait once let a late deduct through.
      const late =
        Date.now() - arrived > options.deliveryTimeoutMs * 0.5 && !broken('receiver.late-answer-not-charged');
      if (seen.has(key) && !broken('receiver.deduct-charged-once')) return json(res, 200, { ok: true });
      if (late) return json(res, 200, { ok: false });
      const balance = balances.get(user)!;
      // Broken: an amount longer than the balance compared with it as text ("100.00" < "19.97").
      const yuan = `${Math.floor(balance / 100)}.${String(balance % 100).padStart(2, '0')}`;
      const text = String(event?.billing?.amount);
      if (
        broken('receiver.deduct-insufficient-longer-amount') && text.length > yuan.length
          ? yuan < text
          : broken('receiver.deduct-insufficient-by-fractions')
            ? Math.round(balance / 100) < Math.round(amount / 100)
            : balance < amount
      )
        return json(res, broken('receiver.deduct-insufficient-ok-false') ? 402 : 200, { ok: false });
      // Checked, then written after a wait: the other deducts arriving meanwhile pass the same check.
      if (broken('receiver.concurrent-deducts-never-overdraw') && burstsAnswered >= (options.racesAfterBursts ?? 0)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        balances.set(user, balance - amount);
      } else balances.set(user, balances.get(user)! - amount);
      charged += amount;
      remember(key);
      return json(res, broken('receiver.deduct-ok-true') ? 201 : 200, { ok: true });
    }
    if (name === 'billing_refund') {
      const amount = valid ? cents(event?.billing?.amount) : undefined;
      if (amount === undefined || typeof user !== 'string' || !balances.has(user))
        return json(res, 400, { error: 'bad refund' });
      if (seen.has(key) && !broken('receiver.refund-given-back-once')) return json(res, 200, { ok: true });
      if (amount > charged) return json(res, 422, { error: 'more than was charged' });
      balances.set(user, balances.get(user)! + amount);
      charged -= amount;
      remember(key);
      return json(res, 200, { ok: true });
    }
    if (!valid) return json(res, 400, { error: 'bad event' });
    if (broken('receiver.notifications-accepted') && name === 'enterprise_authorization_approved')
      return json(res, 400, { error: 'unknown event' });
    const linkUrl = event?.notification?.link_url;
    if (typeof user === 'string' && typeof linkUrl === 'string') {
      const { access_token } = await exchange(user, false);
      // Hostile: the link the rule builds, with the hostile text after it, unencoded.
      const link = linkOf(linkUrl, access_token) + (broken('hostile-text') ? HOSTILE : '');
      links.set(user, [...(links.get(user) ?? []), link]);
    }
    res.writeHead(204).end();
  }

  async function tokenRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req, 4096)) ?? Buffer.alloc(0);
    const leak: Record<string, string> = broken('api-key-never-answered') ? { 'x-hub-key': options.apiKey } : {};
    const sameOrigin = broken('token.origin-prefix-refused')
      ? req.headers.origin?.startsWith(origin) === true
      : req.headers.origin === origin || (broken('token.origin-classes-refused') && req.headers.origin === 'null');
    if (req.headers.origin !== undefined && !sameOrigin && !broken('token.origin-rules'))
      return json(res, 403, { error: 'origin' });
    let user = sessionUser(req);
    if (broken('token.unauthenticated-refused')) user ??= 'user-guest';
    if (broken('token.bound-to-session-user') && user !== undefined) user = 'user-alice';
    if (user === undefined) return json(res, 401, { error: broken('hostile-text') ? HOSTILE : 'sign in' });
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      // an empty body
    }
    if (broken('token.browser-cannot-choose-user') && typeof body.client_user_id === 'string')
      user = body.client_user_id;
    const fresh = body.reason === 'unauthorized' && !broken('token.unauthorized-gets-new-token');
    json(res, 200, await exchange(user, fresh), leak);
  }

  const server = createServer((req, res) => {
    const arrived = Date.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const done = (work: Promise<void>) => work.catch(() => res.headersSent || json(res, 500, { error: 'failed' }));
    if (req.method === 'POST' && path === '/hooks') {
      if (req.headers['x-webhook-event'] !== 'billing_deduct') return void done(webhook(req, res, arrived));
      // A deduct: counted in flight from its request's arrival (its body may be held) to its answer.
      if (++deductsInFlight > 1) inBurst = true;
      mostAtOnce = Math.max(mostAtOnce, deductsInFlight);
      return void done(
        webhook(req, res, arrived).finally(() => {
          if (--deductsInFlight === 0 && inBurst) {
            inBurst = false;
            burstsAnswered++;
          }
        }),
      );
    }
    if (req.method === 'POST' && path === '/token') return void done(tokenRoute(req, res));
    // Broken: the token answered to a GET as JSONP, to whichever callback the query names.
    const callback = new URL(req.url ?? '/', 'http://x').searchParams.get('callback');
    if (broken('token.jsonp-refused') && req.method === 'GET' && path === '/token' && callback) {
      const user = sessionUser(req);
      if (user === undefined) return json(res, 401, { error: 'sign in' });
      return void done(
        exchange(user, false).then((data) => {
          res.writeHead(200, { 'content-type': 'text/javascript' }).end(`${callback}(${JSON.stringify(data)})`);
        }),
      );
    }
    const user = sessionUser(req);
    if (user === undefined) return json(res, 401, { error: 'sign in' });
    if (path === '/balance') return json(res, 200, { balance_cents: balances.get(user) });
    if (path === '/links') return json(res, 200, { links: links.get(user) ?? [] });
    json(res, 404, { error: 'not found' });
  });
  // A request node:http cannot parse (a Content-Length of -1) is dropped without the 400 Node would send.
  if (broken('receiver.bad-content-length-refused')) server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    sessions: ['X-Test-Session: alice', 'X-Test-Session: bob'],
    mostDeductsAtOnce: () => mostAtOnce,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

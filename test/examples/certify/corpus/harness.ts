/**
 * The corpus's one backend: a token route and a webhook receiver on plain node:http, as an integrator
 * would write them without the toolkit, right in every part by default. Each corpus file replaces one
 * part with a realistic mistake (`Parts`), so each file holds only its mistake.
 *
 * The ledger is asynchronous, each call a round trip as to a database, so a mistake in how its calls are
 * combined (read, then write) shows as it would against a real one.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Config {
  apiKey: string;
  baseUrl: string;
  formUrl: string;
  /** The service's webhook timeout; the receiver answers within 80% of it. */
  deliveryTimeoutMs: number;
  port: number;
}

/** A database of balances in cents: every call is a round trip. */
export class Ledger {
  readonly #cents = new Map<string, number>();
  /** Event keys seen, oldest first. */
  readonly #keys = new Set<string>();
  /** How many event keys are kept (the newest); unbounded by default. */
  readonly #window: number;
  /** Cents charged and not refunded, per user: a refund gives back a charge, it never creates money. */
  readonly #charged = new Map<string, number>();

  constructor(window = Infinity) {
    this.#window = window;
  }

  #remember(key: string): void {
    this.#keys.add(key);
    while (this.#keys.size > this.#window) this.#keys.delete(this.#keys.values().next().value!);
  }

  async #roundTrip(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }

  async open(user: string, cents: number): Promise<void> {
    await this.#roundTrip();
    if (!this.#cents.has(user)) this.#cents.set(user, cents);
  }

  async balance(user: string): Promise<number | undefined> {
    await this.#roundTrip();
    return this.#cents.get(user);
  }

  async setBalance(user: string, cents: number): Promise<void> {
    await this.#roundTrip();
    this.#cents.set(user, cents);
  }

  /**
   * `UPDATE … SET cents = cents - $1 WHERE user = $2 AND cents >= $1`, with the event key in the same
   * transaction; `covers` is the WHERE clause, for a file whose mistake is there.
   */
  async deductIfCovered(
    user: string,
    cents: number,
    key: string,
    covers: (balance: number) => boolean = (balance) => balance >= cents,
  ): Promise<'charged' | 'insufficient' | 'seen'> {
    await this.#roundTrip();
    if (this.#keys.has(key)) return 'seen';
    const balance = this.#cents.get(user) ?? 0;
    if (!covers(balance)) return 'insufficient';
    this.#cents.set(user, balance - cents);
    this.#charged.set(user, (this.#charged.get(user) ?? 0) + cents);
    this.#remember(key);
    return 'charged';
  }

  async hasKey(key: string): Promise<boolean> {
    await this.#roundTrip();
    return this.#keys.has(key);
  }

  /** Writes down a charge already taken from the balance, under its event key. */
  async recordCharge(user: string, cents: number, key: string): Promise<void> {
    await this.#roundTrip();
    this.#charged.set(user, (this.#charged.get(user) ?? 0) + cents);
    this.#remember(key);
  }

  /** Gives back up to what was charged; false when the refund is more. Once per key. */
  async refund(user: string, cents: number, key: string | undefined): Promise<boolean> {
    await this.#roundTrip();
    if (key !== undefined && this.#keys.has(key)) return true;
    const charged = this.#charged.get(user) ?? 0;
    if (cents > charged) return false;
    this.#charged.set(user, charged - cents);
    this.#cents.set(user, (this.#cents.get(user) ?? 0) + cents);
    if (key !== undefined) this.#remember(key);
    return true;
  }
}

export interface Delivery {
  req: IncomingMessage;
  raw: Buffer;
  event: Record<string, any>;
  user: string;
  cents: number;
}

export interface TokenAsk {
  req: IncomingMessage;
  body: Record<string, unknown>;
  /** The signed-in user of the request's session cookie; undefined without one. */
  sessionUser: string | undefined;
}

/** The parts a corpus file may replace; `defaults` holds the right ones. */
export interface Parts {
  /** The address the delivery came from, for the allow-list. */
  peer(req: IncomingMessage): string | undefined;
  /** Whether the allow-list holds the peer. */
  allows(allowed: readonly string[], peer: string): boolean;
  /** Whether a delivery naming this event (X-Webhook-Event) has its address checked at all. */
  addressChecked(event: string | undefined): boolean;
  /** Counted from the request's arrival (before its body), or from the body's end. */
  deadlineFrom: 'arrival' | 'body-end';
  /** How many event keys the ledger keeps (the newest). */
  keysKept: number;
  /** Yuan with two decimals, as a pattern (its match is read as cents). */
  amount: RegExp;
  /** The cents of that match. */
  cents(amount: string): number;
  /** What makes two deliveries the same one (paid once). */
  eventKey(delivery: Pick<Delivery, 'req' | 'raw'>): string;
  /** Charges a deduct: 'charged', 'insufficient' or 'seen' (the same delivery again). */
  deduct(ledger: Ledger, delivery: Delivery, key: string): Promise<'charged' | 'insufficient' | 'seen'>;
  /** Gives a refund back: true when given (or given before). */
  refund(ledger: Ledger, delivery: Delivery, key: string): Promise<boolean>;
  /** Answers a deduct the balance cannot cover. */
  insufficient(res: ServerResponse): void;
  /** The longest body the receiver reads. */
  maxBody: number;
  /** Whether a deduct answered after this long is refused (the service stopped waiting). */
  deadline: boolean;
  /** Which event a delivery is: the header, checked against the body. */
  eventOf(req: IncomingMessage, event: Record<string, any> | undefined): string | undefined;
  /** The end user a token is asked for; undefined refuses (401). */
  tokenUser(ask: TokenAsk, tokens: TokenCache): string | undefined;
  /** Whether this ask gets a fresh exchange instead of the cached token. */
  fresh(ask: TokenAsk): boolean;
  /** The JSON the token route answers with, given the exchange's data. */
  tokenAnswer(data: { access_token: string; expires_in: number }, config: Config): Record<string, unknown>;
  /** Headers of the token route's answer. */
  tokenHeaders(config: Config): Record<string, string>;
  /** How a notification link's token is joined to its path (the spec: `&` after a query, else `?`). */
  linkJoiner(path: string): '?' | '&';
  /** Whether the token route answers a page of this origin (the backend's own is `own`). */
  originAllowed(origin: string, own: string): boolean;
  /** What the token cache files a user's token under. */
  cacheKey(user: string): string;
  /** What a built notification link is kept under, for the next notification of the same key; undefined keeps none. */
  linkCacheKey(user: string, linkUrl: string): string | undefined;
  /** Whether the token route also answers a GET, as script to the `callback` its query names (JSONP). */
  jsonp: boolean;
  /** A line the backend prints on each exchange with the service. */
  exchangeLog(user: string, config: Config, data: { access_token: string }): string;
  /** The session cookie's value for a user who signed in (`store` is the backend's own session table). */
  newSession(user: string, store: Map<string, string>): string;
  /** The user of a session cookie's value; undefined for none. */
  sessionOf(value: string, store: Map<string, string>): string | undefined;
}

/** Tokens from the service, one per user, and which user each was given for. */
export class TokenCache {
  readonly byUser = new Map<string, string>();
  readonly ownerOf = new Map<string, string>();
}

const SESSION_COOKIE = 'corpus_session';
const USERS: Record<string, [string, number]> = { alice: ['user-alice', 2000], bob: ['user-bob', 0] };

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

export const defaults: Parts = {
  peer: (req) => req.socket.remoteAddress,
  allows: (allowed, peer) => allowed.includes(peer),
  addressChecked: () => true,
  deadlineFrom: 'arrival',
  keysKept: Infinity,
  amount: /^(\d{1,10})\.(\d{2})$/,
  cents: (amount) => Math.round(Number(amount) * 100),
  eventKey: ({ raw }) => createHash('sha256').update(raw).digest('hex'),
  deduct: (ledger, { user, cents }, key) => ledger.deductIfCovered(user, cents, key),
  refund: (ledger, { user, cents }, key) => ledger.refund(user, cents, key),
  insufficient: (res) => json(res, 200, { ok: false }),
  maxBody: 64 * 1024,
  deadline: true,
  eventOf: (req, event) => {
    const header = req.headers['x-webhook-event'];
    return typeof header === 'string' && event?.event === header ? header : undefined;
  },
  tokenUser: ({ sessionUser }) => sessionUser,
  fresh: ({ body }) => body.reason === 'unauthorized',
  tokenAnswer: (data) => ({ access_token: data.access_token, expires_in: data.expires_in }),
  tokenHeaders: () => ({ 'cache-control': 'no-store' }),
  linkJoiner: (path) => (path.includes('?') ? '&' : '?'),
  originAllowed: (origin, own) => origin === own,
  cacheKey: (user) => user,
  linkCacheKey: () => undefined,
  jsonp: false,
  exchangeLog: (user) => `exchanged a token for ${user}`,
  newSession(user, store) {
    const id = createHash('sha256').update(`${Math.random()}${Date.now()}`).digest('base64url');
    store.set(id, user);
    return id;
  },
  sessionOf: (value, store) => store.get(value),
};

export interface RunningBackend {
  origin: string;
  close(): Promise<void>;
}

/** `print` is the backend's log: nothing in the test's own process, stdout when serve.ts runs it alone. */
export async function startBackend(
  config: Config,
  mistake: Partial<Parts>,
  print: (line: string) => void = () => undefined,
): Promise<RunningBackend> {
  const parts: Parts = { ...defaults, ...mistake };
  const ledger = new Ledger(parts.keysKept);
  const tokens = new TokenCache();
  const sessions = new Map<string, string>();
  const links = new Map<string, string[]>();
  const builtLinks = new Map<string, string>();
  const allowed = ['127.0.0.1', '::ffff:127.0.0.1'];

  async function exchange(user: string, fresh: boolean): Promise<{ access_token: string; expires_in: number }> {
    const cached = tokens.byUser.get(parts.cacheKey(user));
    if (cached !== undefined && !fresh) return { access_token: cached, expires_in: 600 };
    const res = await fetch(`${config.baseUrl}/api/v1/hub/apikeys/token`, {
      method: 'POST',
      headers: { 'x-api-key': config.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ client_user_id: user }),
    });
    const { data } = (await res.json()) as { data: { access_token: string; expires_in: number } };
    tokens.byUser.set(parts.cacheKey(user), data.access_token);
    tokens.ownerOf.set(data.access_token, user);
    print(parts.exchangeLog(user, config, data));
    return data;
  }

  function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= limit) chunks.push(chunk);
        else req.destroy();
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('close', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
      req.on('error', () => resolve(undefined));
    });
  }

  function sessionUser(req: IncomingMessage): string | undefined {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [name, value] = part.trim().split('=');
      if (name === SESSION_COOKIE && value !== undefined) return parts.sessionOf(value, sessions);
    }
    return undefined;
  }

  function centsOf(amount: unknown): number | undefined {
    if (typeof amount !== 'string') return undefined;
    const match = parts.amount.exec(amount);
    if (!match) return undefined;
    const cents = parts.cents(match[0]);
    return Number.isSafeInteger(cents) && cents !== 0 ? cents : undefined;
  }

  async function webhook(req: IncomingMessage, res: ServerResponse, arrivedAt: number): Promise<void> {
    let arrived = arrivedAt;
    const peer = parts.peer(req);
    const claimed = req.headers['x-webhook-event'];
    if (
      parts.addressChecked(typeof claimed === 'string' ? claimed : undefined) &&
      (peer === undefined || !parts.allows(allowed, peer))
    )
      return json(res, 403, { error: 'address not allowed' });
    const raw = await readBody(req, parts.maxBody);
    if (raw === undefined) return json(res, 413, { error: 'body too large' });
    if (parts.deadlineFrom === 'body-end') arrived = Date.now();
    let event: Record<string, any> | undefined;
    try {
      event = JSON.parse(raw.toString('utf8')) as Record<string, any>;
    } catch {
      event = undefined;
    }
    const name = parts.eventOf(req, event);
    const user = event?.target?.client_user_id;
    if (name === 'billing_deduct' || name === 'billing_refund') {
      const cents = centsOf(event?.billing?.amount);
      // A deduct for a user without an account finds no balance to cover it (the ledger's own check).
      if (cents === undefined || typeof user !== 'string')
        return name === 'billing_deduct' ? json(res, 200, { ok: false }) : json(res, 400, { error: 'bad refund' });
      if (name === 'billing_refund' && (await ledger.balance(user)) === undefined)
        return json(res, 400, { error: 'bad refund' });
      const delivery: Delivery = { req, raw, event: event!, user, cents };
      const key = parts.eventKey({ req, raw });
      if (name === 'billing_refund') {
        const given = await parts.refund(ledger, delivery, key);
        return given ? json(res, 200, { ok: true }) : json(res, 422, { error: 'more than was charged' });
      }
      if (parts.deadline && Date.now() - arrived > config.deliveryTimeoutMs * 0.8) return json(res, 200, { ok: false });
      const outcome = await parts.deduct(ledger, delivery, key);
      if (outcome === 'insufficient') return parts.insufficient(res);
      return json(res, 200, { ok: true });
    }
    if (name === undefined) return json(res, 400, { error: 'not an event' });
    const linkUrl = event?.notification?.link_url;
    if (typeof user === 'string' && typeof linkUrl === 'string' && linkUrl.startsWith('/')) {
      const kept = parts.linkCacheKey(user, linkUrl);
      let link = kept === undefined ? undefined : builtLinks.get(kept);
      if (link === undefined) {
        const { access_token } = await exchange(user, false);
        const [path = '', ...fragment] = linkUrl.split('#');
        link = `${config.formUrl}${path}${parts.linkJoiner(path)}token=${encodeURIComponent(access_token)}${fragment.length ? `#${fragment.join('#')}` : ''}`;
        if (kept !== undefined) builtLinks.set(kept, link);
      }
      links.set(user, [...(links.get(user) ?? []), link]);
    }
    res.writeHead(204).end();
  }

  async function tokenRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req, 4096)) ?? Buffer.alloc(0);
    const origin = req.headers.origin;
    if (origin !== undefined && !parts.originAllowed(origin, `http://127.0.0.1:${config.port}`))
      return json(res, 403, { error: 'cross-site request refused' });
    let body: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(raw.toString('utf8') || '{}') as unknown;
      if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
    } catch {
      // no JSON: an empty ask
    }
    const ask: TokenAsk = { req, body, sessionUser: sessionUser(req) };
    const user = parts.tokenUser(ask, tokens);
    if (user === undefined) return json(res, 401, { error: 'sign in first' });
    const data = await exchange(user, parts.fresh(ask));
    json(res, 200, parts.tokenAnswer(data, config), parts.tokenHeaders(config));
  }

  async function signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req, 1024)) ?? Buffer.alloc(0);
    const name = new URLSearchParams(raw.toString('utf8')).get('user') ?? '';
    const known = USERS[name];
    if (!known) return json(res, 400, { error: 'user must be alice or bob' });
    await ledger.open(...known);
    const id = parts.newSession(known[0], sessions);
    res.writeHead(204, { 'set-cookie': `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Lax; Path=/` }).end();
  }

  const server: Server = createServer((req, res) => {
    const arrived = Date.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const done = (work: Promise<void>) =>
      work.catch(() => (res.headersSent ? res.destroy() : json(res, 500, { error: 'failed' })));
    if (req.method === 'POST' && path === '/hooks/hub') return void done(webhook(req, res, arrived));
    if (req.method === 'POST' && path === '/api/hub-token') return void done(tokenRoute(req, res));
    if (req.method === 'POST' && path === '/sign-in') return void done(signIn(req, res));
    const callback = new URL(req.url ?? '/', 'http://x').searchParams.get('callback');
    if (parts.jsonp && req.method === 'GET' && path === '/api/hub-token' && callback !== null) {
      const user = sessionUser(req);
      if (user === undefined) return json(res, 401, { error: 'sign in first' });
      return void done(
        exchange(user, false).then((data) => {
          res.writeHead(200, { 'content-type': 'application/javascript' }).end(`${callback}(${JSON.stringify(data)})`);
        }),
      );
    }
    const user = sessionUser(req);
    if (user === undefined) return json(res, 401, { error: 'sign in first' });
    if (req.method === 'GET' && path === '/api/points')
      return void done(
        ledger.balance(user).then((cents) => json(res, 200, { balance_cents: cents, links: links.get(user) ?? [] })),
      );
    json(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(config.port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One wrong backend: its mistake, and the rules certify must fail for it (and only those). */
export interface WrongBackend {
  /** What the mistake is, as a reviewer would say it. */
  mistake: string;
  /** The rule ids certify must fail. */
  fails: string[];
  parts?: Partial<Parts>;
  /** A backend in another language: the command that starts it (PORT and HUB_* in its environment). */
  command?: string[];
  /**
   * Started by certify itself (`certify -- <command>`, through serve.ts), so that what it prints is graded;
   * its test users sign in through `--sign-in`.
   */
  startedByCertify?: boolean;
  /**
   * What certify's reason for a failed rule must say of this backend (`says`) and must not (`never`): a
   * cause this backend does not have, said anyway, is a guess at how, not what it did.
   */
  reasons?: Record<string, { says?: string; never?: string }>;
}

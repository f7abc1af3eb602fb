/**
 * The simulator's in-memory world (accounts, users, API keys, access tokens, tables) and who a key or token belongs to.
 *
 * Every mutation validates first and then changes state synchronously, so a rejected call changes
 * nothing; the points ledger (ledger.ts) moves points by the same rule.
 */
import { TableCatalog } from './catalog.js';
import { MockHttpError, randomHex } from './http.js';
import { signAccessToken } from './jwt.js';
import { TokenStore } from './tokens.js';
import type { MockSeed, LedgerRecord, SeedTable, TransferRecord, WebhookConfig } from './types.js';

export interface ApiKeyRecord {
  key: string;
  /** Short, public and unique (`k1`, `k2`, ...): what the console shows and acts on, never the key. */
  id: string;
  accountId: number;
  status: 'active' | 'disabled';
  expiresAt: number | null;
  createdAt: number;
}

export interface UserRecord {
  clientUserId: string;
  userId: number;
  balanceCents: number;
  /** Oldest first; the logs endpoint reverses. */
  logs: LedgerRecord[];
}

export interface Account {
  id: number;
  name: string;
  role: 'developer' | 'member';
  poolCents: number;
  users: Map<string, UserRecord>;
  webhooks: WebhookConfig[];
  /** Running totals that let tests prove the ledger neither creates nor loses points. */
  totals: { toppedUp: number; charged: number; refunded: number };
  orderIds: Set<string>;
  refundedLogIds: Set<number>;
  /** Pool-to-user moves (recharges and console transfers), oldest first. */
  transfers: TransferRecord[];
}

export class HubState {
  readonly accounts = new Map<number, Account>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly catalog = new TableCatalog();
  tokens = new TokenStore();
  /** Signs this simulator's access tokens; kept across Reset (which drops the tokens themselves). */
  readonly tokenSecret = crypto.getRandomValues(new Uint8Array(32));
  nextUserId = 10001;
  /** The id of the next points log record; the ledger (ledger.ts) takes it. */
  nextLogId = 1;
  nextKeyNumber = 1;

  constructor(seed: MockSeed, now = Date.now()) {
    this.load(seed, now);
  }

  /** Every table in catalogue order (seed order, then tables added in the console). */
  get tables(): readonly SeedTable[] {
    return this.catalog.all;
  }

  /** (Re)starts from a seed: what the console's Reset does; user, log and key ids start again too. */
  load(seed: MockSeed, now: number): void {
    this.nextUserId = 10001;
    this.nextLogId = 1;
    this.nextKeyNumber = 1;
    this.accounts.clear();
    this.keys.clear();
    this.catalog.clear();
    this.tokens = new TokenStore();
    for (const t of seed.tables) this.catalog.add({ ...t, tags: [...t.tags] });
    for (const seeded of seed.accounts) {
      const account: Account = {
        id: seeded.id,
        name: seeded.name,
        role: seeded.role,
        poolCents: seeded.pool_cents ?? 0,
        users: new Map(),
        webhooks: (seeded.webhooks ?? []).map((webhook) => ({ ...webhook })),
        totals: { toppedUp: seeded.pool_cents ?? 0, charged: 0, refunded: 0 },
        orderIds: new Set(),
        refundedLogIds: new Set(),
        transfers: [],
      };
      for (const user of seeded.users ?? []) {
        account.users.set(user.client_user_id, this.newUser(user.client_user_id, user.balance_cents));
        account.totals.toppedUp += user.balance_cents;
      }
      for (const key of seeded.keys ?? []) {
        this.addKey(key.key, seeded.id, key.status, key.expires_at ? Date.parse(key.expires_at) : null, now);
      }
      this.accounts.set(seeded.id, account);
    }
  }

  newUser(clientUserId: string, balanceCents: number): UserRecord {
    return { clientUserId, userId: this.nextUserId++, balanceCents, logs: [] };
  }

  /** The spec's key rule: active, unexpired, of a developer account; anything else is 401. */
  authenticateKey(key: string | null, now: number): Account {
    if (key === null || key === '')
      throw new MockHttpError(401, 'Missing X-API-Key header; send the full plaintext API key.');
    const record = this.keys.get(key);
    if (!record) throw new MockHttpError(401, 'Invalid API key.');
    if (record.status !== 'active')
      throw new MockHttpError(401, 'This API key is disabled; create a new one in the console.');
    if (record.expiresAt !== null && record.expiresAt <= now)
      throw new MockHttpError(401, 'This API key has expired; create a new one in the console.');
    const account = this.accounts.get(record.accountId);
    if (!account || account.role !== 'developer') {
      throw new MockHttpError(401, 'This API key does not belong to a developer account.');
    }
    return account;
  }

  issueToken(
    account: Account,
    clientUserId: string,
    now: number,
    ttlSeconds: number,
  ): { access_token: string; expires_in: number } {
    this.tokens.prune(now);
    const iat = Math.floor(now / 1000);
    const token = signAccessToken(this.tokenSecret, {
      sub: clientUserId,
      developer_id: account.id,
      iat,
      exp: iat + ttlSeconds,
      jti: randomHex(16),
    });
    this.tokens.add({ token, developerId: account.id, clientUserId, expiresAt: now + ttlSeconds * 1000 });
    this.ensureUser(account, clientUserId);
    return { access_token: token, expires_in: ttlSeconds };
  }

  /** Resolves a Bearer token; unknown or expired tokens, and tokens of since-removed accounts, are 401. */
  authenticateToken(token: string | null, now: number): { account: Account; clientUserId: string } {
    if (token === null || token === '')
      throw new MockHttpError(401, 'Missing access token; send Authorization: Bearer <access_token>.');
    const record = this.tokens.get(token);
    if (!record) throw new MockHttpError(401, 'Invalid access token; obtain a new one.');
    if (record.expiresAt <= now) throw new MockHttpError(401, 'The access token has expired; obtain a new one.');
    const account = this.accounts.get(record.developerId);
    if (!account) throw new MockHttpError(401, 'Invalid access token; obtain a new one.');
    return { account, clientUserId: record.clientUserId };
  }

  developer(id?: number): Account {
    if (id === undefined) {
      for (const account of this.accounts.values()) if (account.role === 'developer') return account;
      throw new MockHttpError(404, 'The seed has no developer account.');
    }
    const account = this.accounts.get(id);
    if (!account || account.role !== 'developer') throw new MockHttpError(404, `No developer account with id ${id}.`);
    return account;
  }

  ensureUser(account: Account, clientUserId: string): UserRecord {
    let user = account.users.get(clientUserId);
    if (!user) {
      user = this.newUser(clientUserId, 0);
      account.users.set(clientUserId, user);
    }
    return user;
  }

  /** Users the developer never issued a token for nor recharged are unknown (404), not silently zero. */
  knownUser(account: Account, clientUserId: string): UserRecord {
    const user = account.users.get(clientUserId);
    if (!user)
      throw new MockHttpError(404, 'Unknown client_user_id for this developer; exchange a token or recharge first.');
    return user;
  }

  table(shortCode: string): SeedTable | undefined {
    return this.catalog.get(shortCode);
  }

  private addKey(
    key: string,
    accountId: number,
    status: ApiKeyRecord['status'],
    expiresAt: number | null,
    now: number,
  ): ApiKeyRecord {
    const record: ApiKeyRecord = { key, id: `k${this.nextKeyNumber++}`, accountId, status, expiresAt, createdAt: now };
    this.keys.set(key, record);
    return record;
  }

  createKey(account: Account, expiresAt: number | null, now: number): ApiKeyRecord {
    return this.addKey(`sk-mock-${randomHex(16)}`, account.id, 'active', expiresAt, now);
  }

  /** A key by its plaintext or by its public id (the console only knows the id). */
  keyRecord(keyOrId: string): ApiKeyRecord {
    const record = this.keys.get(keyOrId) ?? [...this.keys.values()].find((key) => key.id === keyOrId);
    if (!record) throw new MockHttpError(404, 'No such API key.');
    return record;
  }
}

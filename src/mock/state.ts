/**
 * The simulator's in-memory world: accounts, keys, tokens, tables and the points ledger.
 * Every mutation validates first and then changes state synchronously, so a rejected call changes
 * nothing and concurrent requests (one event loop) can never interleave half-way through a transfer.
 */
import { TableCatalog } from './catalog.js';
import { MockHttpError, isoUtc, randomHex } from './http.js';
import { TokenStore } from './tokens.js';
import type { ApiKeyView, MockSeed, PointsLogRecord, SeedTable, TransferRecord, WebhookConfig } from './types.js';

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
  logs: PointsLogRecord[];
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

export interface RechargeInput {
  clientUserId: string;
  amountCents: number;
  externalOrderId?: string;
  reason?: string;
}

export class HubState {
  readonly accounts = new Map<number, Account>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly catalog = new TableCatalog();
  tokens = new TokenStore();
  nextUserId = 10001;
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
    for (const a of seed.accounts) {
      const account: Account = {
        id: a.id,
        name: a.name,
        role: a.role,
        poolCents: a.pool_cents ?? 0,
        users: new Map(),
        webhooks: (a.webhooks ?? []).map((w) => ({ ...w })),
        totals: { toppedUp: a.pool_cents ?? 0, charged: 0, refunded: 0 },
        orderIds: new Set(),
        refundedLogIds: new Set(),
        transfers: [],
      };
      for (const u of a.users ?? []) {
        account.users.set(u.client_user_id, this.newUser(u.client_user_id, u.balance_cents));
        account.totals.toppedUp += u.balance_cents;
      }
      for (const k of a.keys ?? []) {
        this.addKey(k.key, a.id, k.status, k.expires_at ? Date.parse(k.expires_at) : null, now);
      }
      this.accounts.set(a.id, account);
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
    const token = `at-${randomHex(24)}`;
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
      for (const a of this.accounts.values()) if (a.role === 'developer') return a;
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

  log(
    user: UserRecord,
    now: number,
    entry: Omit<PointsLogRecord, 'id' | 'created_at' | 'balance_after' | 'amount_cents'>,
  ): PointsLogRecord {
    const record: PointsLogRecord = {
      id: this.nextLogId++,
      ...entry,
      amount_cents: Math.abs(entry.change_cents),
      balance_after: user.balanceCents,
      created_at: isoUtc(now),
    };
    user.logs.push(record);
    return record;
  }

  recharge(account: Account, input: RechargeInput, now: number) {
    if (input.externalOrderId !== undefined && account.orderIds.has(input.externalOrderId)) {
      throw new MockHttpError(409, 'external_order_id was already used for a recharge; nothing was changed.');
    }
    if (account.poolCents < input.amountCents) {
      throw new MockHttpError(
        402,
        `The developer points pool (${account.poolCents} cents) cannot cover ${input.amountCents} cents; top it up in the console.`,
      );
    }
    const user = this.ensureUser(account, input.clientUserId);
    account.poolCents -= input.amountCents;
    user.balanceCents += input.amountCents;
    if (input.externalOrderId !== undefined) account.orderIds.add(input.externalOrderId);
    const record = this.log(user, now, {
      source: 'transfer',
      record_type: 'recharge',
      change_cents: input.amountCents,
      reason: input.reason ?? 'Recharge',
      status: 'success',
      short_code: null,
      project_id: null,
    });
    account.transfers.push({
      id: record.id,
      client_user_id: user.clientUserId,
      amount_cents: input.amountCents,
      reason: record.reason,
      external_order_id: input.externalOrderId ?? null,
      created_at: record.created_at,
    });
    return {
      client_user_id: user.clientUserId,
      to_user_id: user.userId,
      amount_cents: input.amountCents,
      ...(input.externalOrderId !== undefined ? { external_order_id: input.externalOrderId } : {}),
      user_balance_cents: user.balanceCents,
      developer_balance_cents: account.poolCents,
    };
  }

  topUp(account: Account, cents: number): number {
    account.poolCents += cents;
    account.totals.toppedUp += cents;
    return account.poolCents;
  }

  /** Takes the table's price from the user's own points; insufficient points log a failed record. */
  chargePoints(account: Account, user: UserRecord, table: SeedTable, now: number): PointsLogRecord {
    const price = table.price_cents;
    if (user.balanceCents < price) {
      return this.logFailed(
        user,
        table,
        now,
        `Insufficient points: ${price} cents needed, ${user.balanceCents} available.`,
      );
    }
    user.balanceCents -= price;
    account.totals.charged += price;
    return this.log(user, now, {
      source: 'billing',
      record_type: 'deduct',
      change_cents: -price,
      reason: `Paid action on ${table.name}`,
      status: 'success',
      short_code: table.short_code,
      project_id: table.project_id,
    });
  }

  /** A charge the developer took on its own side (billing URL): points do not move, the record says so. */
  logExternalDeduct(
    user: UserRecord,
    table: SeedTable,
    now: number,
    sent: { amountCents: number; reason: string } = {
      amountCents: table.price_cents,
      reason: `Paid action on ${table.name}`,
    },
  ): PointsLogRecord {
    return this.log(user, now, {
      source: 'billing',
      record_type: 'deduct',
      change_cents: 0,
      reason: `${sent.reason}: ${sent.amountCents} cents charged by the developer's billing URL`,
      status: 'success',
      short_code: table.short_code,
      project_id: table.project_id,
    });
  }

  logFailed(user: UserRecord, table: SeedTable, now: number, reason: string): PointsLogRecord {
    return this.log(user, now, {
      source: 'billing',
      record_type: 'failed',
      change_cents: 0,
      reason,
      status: 'failed',
      short_code: table.short_code,
      project_id: table.project_id,
    });
  }

  /**
   * Refunds one earlier deduct record of the user. Points go back only when the charge took points;
   * a charge made through the billing URL is refunded on the developer's side (billing_refund).
   */
  refund(account: Account, user: UserRecord, logId: number, reason: string, now: number) {
    const charge = user.logs.find((r) => r.id === logId);
    if (!charge) throw new MockHttpError(404, `No points log record ${logId} for this user.`);
    if (charge.record_type !== 'deduct')
      throw new MockHttpError(
        400,
        `Record ${logId} is a ${charge.record_type}, not a deduct; only charges can be refunded.`,
      );
    if (account.refundedLogIds.has(logId)) {
      throw new MockHttpError(409, `Record ${logId} was already refunded; nothing was changed.`);
    }
    const back = -charge.change_cents;
    account.refundedLogIds.add(logId);
    user.balanceCents += back;
    account.totals.refunded += back;
    const table = charge.short_code === null ? undefined : this.table(charge.short_code);
    const record = this.log(user, now, {
      source: 'billing',
      record_type: 'refund',
      change_cents: back,
      reason,
      status: 'success',
      short_code: charge.short_code,
      project_id: charge.project_id,
    });
    const price = back > 0 ? back : (table?.price_cents ?? 0);
    return { record, amountCents: price, table };
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
    const record = this.keys.get(keyOrId) ?? [...this.keys.values()].find((k) => k.id === keyOrId);
    if (!record) throw new MockHttpError(404, 'No such API key.');
    return record;
  }

  /** Pool + balances + charged - refunded must equal everything ever topped up. */
  ledgerBalanced(account: Account): boolean {
    let balances = 0;
    for (const u of account.users.values()) balances += u.balanceCents;
    return account.poolCents + balances + account.totals.charged - account.totals.refunded === account.totals.toppedUp;
  }
}

/**
 * The prefix and the last four characters. Two keys can share both (the seed's keys all end in the
 * same digits), so the console shows the mask with the key's id, created time and state.
 */
export function maskKey(key: string): string {
  return key.length < 16 ? `${key.slice(0, 3)}…` : `${key.slice(0, 8)}…${key.slice(-4)}`;
}

export function keyView(record: ApiKeyRecord, now: number): ApiKeyView {
  const expired = record.expiresAt !== null && record.expiresAt <= now;
  return {
    id: record.id,
    mask: maskKey(record.key),
    state: record.status === 'disabled' ? 'disabled' : expired ? 'expired' : 'active',
    status: record.status,
    created_at: isoUtc(record.createdAt),
    expires_at: record.expiresAt === null ? null : isoUtc(record.expiresAt),
  };
}

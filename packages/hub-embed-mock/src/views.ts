/** Read-only views of the simulator's state: the ledger check, the console's snapshot, keys as it shows them, pages. */
import type { HubContext } from './context.js';
import { isoUtc } from './http.js';
import { iconUrl } from './icons.js';
import { ledgerBalanced } from './ledger.js';
import { OUTBOUND_IPS } from './webhooks.js';
import type { Account, ApiKeyRecord, HubState } from './state.js';
import type { ApiKeyView, ConsoleLogRecord, MockSeed, Page, ReadViews } from './types.js';

/**
 * One page of an oldest-first list, newest first, copying only the page: O(page_size), however long
 * the list: a user with a long history pays per page, not per history.
 */
export function newestFirstPage<T extends object>(list: readonly T[], page: number, pageSize: number): Page<T> {
  const items: T[] = [];
  const last = list.length - 1 - (page - 1) * pageSize;
  for (let index = last; index > last - pageSize && index >= 0; index--) items.push({ ...list[index]! });
  return { list: items, total: list.length, page, page_size: pageSize };
}

function usersOf(account: Account) {
  return [...account.users.values()].map((user) => ({
    client_user_id: user.clientUserId,
    user_id: user.userId,
    balance_cents: user.balanceCents,
  }));
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

function keysOf(state: HubState, accountId: number, now: number) {
  return [...state.keys.values()].filter((key) => key.accountId === accountId).map((key) => keyView(key, now));
}

export function readViews(context: HubContext, seed: MockSeed): ReadViews {
  const { state, baseUrl } = context;
  return {
    ledger(developerId) {
      const dev = state.developer(developerId);
      let balances = 0;
      for (const user of dev.users.values()) balances += user.balanceCents;
      return {
        poolCents: dev.poolCents,
        balancesCents: balances,
        toppedUpCents: dev.totals.toppedUp,
        chargedCents: dev.totals.charged,
        refundedCents: dev.totals.refunded,
        balanced: ledgerBalanced(dev),
      };
    },
    snapshot() {
      return {
        outbound_ips: [...OUTBOUND_IPS],
        accounts: [...state.accounts.values()].map((account) => ({
          id: account.id,
          name: account.name,
          role: account.role,
          pool_cents: account.poolCents,
          keys: keysOf(state, account.id, context.now()),
          users: usersOf(account),
          webhooks: account.webhooks.map((webhook) => ({ ...webhook })),
        })),
        tables: state.tables.map((t) => ({ ...t, icon: iconUrl(t.icon, baseUrl) })),
      };
    },
    keys(developerId) {
      return keysOf(state, state.developer(developerId).id, context.now());
    },
    points(developerId) {
      const dev = state.developer(developerId);
      return { developer_id: dev.id, pool_cents: dev.poolCents, users: usersOf(dev) };
    },
    webhooks(developerId) {
      const dev = state.developer(developerId);
      return { configs: dev.webhooks.map((webhook) => ({ ...webhook })), outbound_ips: [...OUTBOUND_IPS] };
    },
    tables(page, pageSize) {
      const list = state.tables
        .slice((page - 1) * pageSize, page * pageSize)
        .map((t) => ({ ...t, tags: [...t.tags], icon: iconUrl(t.icon, baseUrl) }));
      return { list, total: state.tables.length, page, page_size: pageSize };
    },
    transfers(page, pageSize, developerId) {
      return newestFirstPage(state.developer(developerId).transfers, page, pageSize);
    },
    userLogs(clientUserId, page, pageSize, developerId) {
      const account = state.developer(developerId);
      const logs: Page<ConsoleLogRecord> = newestFirstPage(state.knownUser(account, clientUserId).logs, page, pageSize);
      // The console's Refund button is off for a charge already refunded (a second refund is 409).
      for (const record of logs.list)
        if (record.record_type === 'deduct') record.refunded = account.refundedLogIds.has(record.id);
      return logs;
    },
    seed() {
      return structuredClone(seed);
    },
  };
}

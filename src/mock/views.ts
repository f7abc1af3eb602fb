/** Read-only views of the simulator's state: the ledger check and the console's snapshot. */
import { isoUtc } from './http.js';
import { iconUrl } from './icons.js';
import { maskKey, type HubState } from './state.js';
import type { ReadViews } from './types.js';

export function readViews(state: HubState, baseUrl: string): ReadViews {
  return {
    ledger(developerId) {
      const dev = state.developer(developerId);
      let balances = 0;
      for (const u of dev.users.values()) balances += u.balanceCents;
      return {
        poolCents: dev.poolCents,
        balancesCents: balances,
        toppedUpCents: dev.totals.toppedUp,
        chargedCents: dev.totals.charged,
        refundedCents: dev.totals.refunded,
        balanced: state.ledgerBalanced(dev),
      };
    },
    snapshot() {
      return {
        outbound_ips: ['127.0.0.1'],
        accounts: [...state.accounts.values()].map((a) => ({
          id: a.id,
          name: a.name,
          role: a.role,
          pool_cents: a.poolCents,
          keys: [...state.keys.values()]
            .filter((k) => k.accountId === a.id)
            .map((k) => ({
              key: maskKey(k.key),
              status: k.status,
              expires_at: k.expiresAt === null ? null : isoUtc(k.expiresAt),
            })),
          users: [...a.users.values()].map((u) => ({
            client_user_id: u.clientUserId,
            user_id: u.userId,
            balance_cents: u.balanceCents,
          })),
          webhooks: a.webhooks.map((w) => ({ ...w })),
        })),
        tables: state.tables.map((t) => ({ ...t, icon: iconUrl(t.icon, baseUrl) })),
      };
    },
  };
}

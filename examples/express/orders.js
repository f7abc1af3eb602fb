// @ts-check
// Paid orders and their recharges, in the same Postgres database as the ledger: each order is credited on
// the service exactly once, whether the payment callback arrives twice, two arrive at once, or the process
// dies between "paid" and "credited". Plain SQL that runs unchanged on PGlite and on Postgres.
import { isHubError } from 'hub-embed/core';
import { HubRechargeUnknownError } from 'hub-embed/server';

/** @typedef {import('./database.js').Database} Database */
/** @typedef {'credited' | 'already-credited' | 'in-progress' | 'unknown' | 'not-applied'} CreditOutcome */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    order_id text PRIMARY KEY,
    client_user_id text NOT NULL,
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    -- paid: not credited yet. sent: a recharge went out at least once, so its outcome must be looked up
    -- before another goes out. credited: done.
    state text NOT NULL CHECK (state IN ('paid', 'sent', 'credited')),
    -- Who is crediting it now, until when: a second callback (or instance) leaves it alone meanwhile.
    lease_until timestamptz,
    paid_at timestamptz NOT NULL DEFAULT now(),
    credited_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS orders_open ON orders (state) WHERE state <> 'credited';
`;

/** How long one credit attempt may hold an order; longer than a recharge's retries with their timeouts. */
const LEASE_SECONDS = 120;

/**
 * @param {Database} db
 * @param {import('hub-embed/server').ServerClient} client
 */
export async function createOrders(db, client) {
  await db.exec(SCHEMA);

  /** @param {string} orderId @param {'credited' | 'sent'} state */
  const release = (orderId, state) =>
    db.query(
      `UPDATE orders SET state = $2, lease_until = NULL,
         credited_at = CASE WHEN $2 = 'credited' THEN now() ELSE NULL END
       WHERE order_id = $1`,
      [orderId, state],
    );

  const orders = {
    /**
     * Your payment callback: records the order as paid. The same callback again changes nothing; the same
     * order id with another user or amount is refused.
     * @param {{ orderId: string, clientUserId: string, amountCents: number }} order
     */
    async paid({ orderId, clientUserId, amountCents }) {
      await db.query(
        `INSERT INTO orders (order_id, client_user_id, amount_cents, state) VALUES ($1, $2, $3, 'paid')
         ON CONFLICT (order_id) DO NOTHING`,
        [orderId, clientUserId, amountCents],
      );
      const { rows } = await db.query(`SELECT client_user_id, amount_cents FROM orders WHERE order_id = $1`, [orderId]);
      if (rows[0]?.client_user_id !== clientUserId || Number(rows[0]?.amount_cents) !== amountCents)
        throw new Error(`Order ${orderId} was paid before with another user or amount; nothing was changed.`);
    },

    /**
     * Credits a paid order on the service, once. An order whose recharge went out before (a crash, a lost
     * answer) is looked up in the service's logs first (findRecharge) and only sent when it is not there.
     * @param {string} orderId
     * @returns {Promise<CreditOutcome>}
     */
    async credit(orderId) {
      // Claim it: one caller at a time, and learn whether a recharge went out before.
      const { rows } = await db.query(
        `UPDATE orders SET lease_until = now() + make_interval(secs => $2)
         WHERE order_id = $1 AND state <> 'credited' AND (lease_until IS NULL OR lease_until < now())
         RETURNING client_user_id, amount_cents, state`,
        [orderId, LEASE_SECONDS],
      );
      const order = rows[0];
      if (!order) {
        const { rows: found } = await db.query(`SELECT state FROM orders WHERE order_id = $1`, [orderId]);
        if (found.length === 0) throw new Error(`No paid order ${orderId}.`);
        return found[0]?.state === 'credited' ? 'already-credited' : 'in-progress';
      }
      const input = {
        clientUserId: String(order.client_user_id),
        amountCents: Number(order.amount_cents),
        externalOrderId: orderId,
      };
      try {
        if (order.state === 'sent' && (await client.findRecharge(input))) {
          await release(orderId, 'credited');
          return 'credited';
        }
        // Written before the recharge goes out: a crash from here on leaves 'sent', looked up next time.
        await db.query(`UPDATE orders SET state = 'sent' WHERE order_id = $1`, [orderId]);
        await client.recharge({ ...input, reason: 'Top-up' });
        await release(orderId, 'credited');
        return 'credited';
      } catch (error) {
        // Unknown or not applied: left 'sent' for resume(), which looks it up before anything is sent again.
        if (error instanceof HubRechargeUnknownError || isHubError(error, 'timeout') || isHubError(error, 'network')) {
          await release(orderId, 'sent');
          return error instanceof HubRechargeUnknownError ? 'unknown' : 'not-applied';
        }
        await release(orderId, 'sent');
        throw error;
      }
    },

    /**
     * Credits every order not credited yet: run it at start-up (after a crash) and now and then. `afterCrash`
     * frees the claims a dead process held; pass it only when no other instance is running.
     * @param {{ afterCrash?: boolean }} [options]
     * @returns {Promise<Record<CreditOutcome, number>>}
     */
    async resume({ afterCrash = false } = {}) {
      if (afterCrash) await db.query(`UPDATE orders SET lease_until = NULL WHERE state <> 'credited'`);
      const { rows } = await db.query(`SELECT order_id FROM orders WHERE state <> 'credited' ORDER BY paid_at`);
      /** @type {Record<CreditOutcome, number>} */
      const outcomes = { credited: 0, 'already-credited': 0, 'in-progress': 0, unknown: 0, 'not-applied': 0 };
      for (const row of rows) outcomes[await orders.credit(String(row.order_id))]++;
      return outcomes;
    },

    /** Orders of a user that are credited, for reconciliation. @param {string} clientUserId */
    async credited(clientUserId) {
      const { rows } = await db.query(
        `SELECT order_id, amount_cents FROM orders WHERE client_user_id = $1 AND state = 'credited'`,
        [clientUserId],
      );
      return rows.map((row) => ({ orderId: String(row.order_id), amountCents: Number(row.amount_cents) }));
    },
  };
  return orders;
}

/** @typedef {Awaited<ReturnType<typeof createOrders>>} Orders */

// @ts-check
// Paid orders and their recharges, in the same Postgres database as the ledger, credited on the service
// exactly once by the toolkit's createRechargeOrders: this file is its order store. One owner per order: a
// claim with a fencing token, renewed while a credit runs, checked by every write, so a second callback,
// instance or a stalled process never sends an order another one holds. Times are the database's clock, one
// clock for every instance. Plain SQL that runs unchanged on PGlite and on Postgres.
import { createRechargeOrders } from 'hub-embed/server';

/** @typedef {import('./database.js').Database} Database */
/** @typedef {import('hub-embed/server').OrderStore} OrderStore */
/** @typedef {import('hub-embed/server').CreditOutcome} CreditOutcome */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    order_id text PRIMARY KEY,
    client_user_id text NOT NULL,
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    -- paid: may be sent. pending: sent, outcome not proven yet (resolved from the service's logs before
    -- anything is sent again). credited: done.
    state text NOT NULL CHECK (state IN ('paid', 'pending', 'credited')),
    sent_at bigint,
    -- The claim: its fencing token, larger at each new claim, and until when it holds (ms, database clock).
    fence bigint NOT NULL DEFAULT 0,
    claimed_until bigint NOT NULL DEFAULT 0,
    paid_at timestamptz NOT NULL DEFAULT now(),
    credited_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS orders_open ON orders (state) WHERE state <> 'credited';
`;

/** The database's clock in ms: the one clock every instance's claims and sends are judged by. */
const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * The order store of createRechargeOrders, in this database.
 * @param {Database} db
 * @returns {OrderStore}
 */
export function postgresOrderStore(db) {
  return {
    async add({ orderId, clientUserId, amountCents }) {
      await db.query(
        `INSERT INTO orders (order_id, client_user_id, amount_cents, state) VALUES ($1, $2, $3, 'paid')
         ON CONFLICT (order_id) DO NOTHING`,
        [orderId, clientUserId, amountCents],
      );
      const { rows } = await db.query(`SELECT client_user_id, amount_cents FROM orders WHERE order_id = $1`, [orderId]);
      if (rows[0]?.client_user_id !== clientUserId || Number(rows[0]?.amount_cents) !== amountCents)
        throw new Error(`Order ${orderId} was paid before with another user or amount; nothing was changed.`);
    },
    async claim(orderId, holdMs) {
      const { rows } = await db.query(
        `UPDATE orders SET fence = fence + 1, claimed_until = ${NOW_MS} + $2
         WHERE order_id = $1 AND state <> 'credited' AND claimed_until <= ${NOW_MS}
         RETURNING client_user_id, amount_cents, state, sent_at, fence, ${NOW_MS} AS now`,
        [orderId, holdMs],
      );
      const row = rows[0];
      if (!row) {
        const { rows: found } = await db.query(`SELECT state FROM orders WHERE order_id = $1`, [orderId]);
        if (found.length === 0) return 'missing';
        return found[0]?.state === 'credited' ? 'credited' : 'claimed';
      }
      return {
        order: {
          orderId,
          clientUserId: String(row.client_user_id),
          amountCents: Number(row.amount_cents),
          state: /** @type {'paid' | 'pending'} */ (row.state),
          sentAt: row.sent_at === null ? undefined : Number(row.sent_at),
        },
        fence: Number(row.fence),
        now: Number(row.now),
      };
    },
    async renew(orderId, fence, holdMs) {
      const { rows } = await db.query(
        `UPDATE orders SET claimed_until = ${NOW_MS} + $3
         WHERE order_id = $1 AND fence = $2 AND claimed_until > ${NOW_MS} RETURNING order_id`,
        [orderId, fence, holdMs],
      );
      return rows.length === 1;
    },
    async write(orderId, fence, { state, sent = false, release = false }) {
      const { rows } = await db.query(
        `UPDATE orders SET state = $3,
           sent_at = CASE WHEN $4::boolean THEN ${NOW_MS} ELSE sent_at END,
           claimed_until = CASE WHEN $5::boolean THEN 0 ELSE claimed_until END,
           credited_at = CASE WHEN $3 = 'credited' THEN now() ELSE credited_at END
         WHERE order_id = $1 AND fence = $2 AND claimed_until > ${NOW_MS} RETURNING order_id`,
        [orderId, fence, state, sent, release],
      );
      return rows.length === 1;
    },
    async open() {
      const { rows } = await db.query(`SELECT order_id FROM orders WHERE state <> 'credited' ORDER BY paid_at`);
      return rows.map((row) => String(row.order_id));
    },
  };
}

/**
 * @param {Database} db
 * @param {import('hub-embed/server').ServerClient} client
 * @param {{ holdMs?: number }} [options] how long a claim lasts unrenewed (default 30 s): a crashed
 *   process's orders wait that long before another instance takes them over.
 */
export async function createOrders(db, client, options = {}) {
  await db.exec(SCHEMA);
  const orders = createRechargeOrders({ client, store: postgresOrderStore(db), reason: 'Top-up', ...options });
  return {
    /**
     * Your payment callback: records the order as paid. The same callback again changes nothing; the same
     * order id with another user or amount is refused.
     */
    paid: orders.paid,
    /**
     * Credits a paid order on the service, once: 'credited', 'already-credited', 'in-progress' (another
     * caller holds it) or 'pending' (sent; the logs will tell, and reconcile() settles it).
     */
    credit: orders.credit,
    /** Credits or settles every order not credited: run it at start-up and every minute or so. */
    reconcile: orders.reconcile,
    /**
     * Ends every claim at once, for a start-up after a crash when no other instance runs: otherwise a dead
     * process's claims end by themselves after holdMs. A stalled holder can still write nothing once
     * another claim is made: its fence is old.
     */
    async releaseClaims() {
      await db.query(`UPDATE orders SET claimed_until = 0 WHERE state <> 'credited'`);
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
}

/** @typedef {Awaited<ReturnType<typeof createOrders>>} Orders */

// @ts-check
import { createHash } from 'node:crypto';

// The app's own points ledger: what `billing_deduct` charges and `billing_refund` gives back. Plain SQL
// that runs unchanged on PGlite and on Postgres.

/** @typedef {import('./database.js').Database} Database */
/** @typedef {import('./database.js').Queryable} Queryable */

/**
 * @typedef {object} LedgerEntry
 * @property {number} id
 * @property {'opening' | 'deduct' | 'refund'} kind
 * @property {number} changeCents negative for a deduct
 * @property {number} balanceAfterCents
 * @property {string} reason
 * @property {string} shortCode
 * @property {string} createdAt ISO 8601
 */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS accounts (
    client_user_id text PRIMARY KEY,
    balance_cents bigint NOT NULL CHECK (balance_cents >= 0)
  );
  CREATE TABLE IF NOT EXISTS ledger (
    id bigserial PRIMARY KEY,
    client_user_id text NOT NULL REFERENCES accounts,
    kind text NOT NULL CHECK (kind IN ('opening', 'deduct', 'refund')),
    change_cents bigint NOT NULL,
    balance_after_cents bigint NOT NULL,
    reason text NOT NULL,
    short_code text NOT NULL DEFAULT '',
    event_key text UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  -- A database made by an earlier version of this example keyed refunds only.
  ALTER TABLE ledger ADD COLUMN IF NOT EXISTS event_key text UNIQUE;
  CREATE INDEX IF NOT EXISTS ledger_by_user ON ledger (client_user_id, id DESC);
`;

const UNIQUE_VIOLATION = '23505';

/** @param {unknown} error */
function isUniqueViolation(error) {
  return (
    typeof error === 'object' && error !== null && /** @type {{ code?: unknown }} */ (error).code === UNIQUE_VIOLATION
  );
}

/** Thrown inside a transaction to undo it; never escapes this module. */
class Rollback extends Error {}

/**
 * The key that makes one webhook delivery one ledger row. The spec gives events no id, so the body is
 * the identity: the same body again (a resend, two billing URLs pointing here) is the same event. It is a
 * heuristic: two real charges with identical bodies (same user, table, amount, reason and second) would
 * count once, and the second would be free (docs/server.md, "Idempotency without an event id").
 * @param {{ raw: Readonly<Record<string, unknown>> }} event a parsed webhook event of hub-embed/server
 */
export function eventKeyOf(event) {
  return createHash('sha256').update(JSON.stringify(event.raw)).digest('base64url');
}

/**
 * @param {Database} db
 */
export async function createLedger(db) {
  await db.exec(SCHEMA);

  /** @param {Queryable} q @param {string} clientUserId @param {number} changeCents @param {number} balanceAfterCents @param {'opening' | 'deduct' | 'refund'} kind @param {string} reason @param {string} shortCode @param {string | null} eventKey */
  const writeEntry = (q, clientUserId, changeCents, balanceAfterCents, kind, reason, shortCode, eventKey) =>
    q.query(
      `INSERT INTO ledger (client_user_id, kind, change_cents, balance_after_cents, reason, short_code, event_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [clientUserId, kind, changeCents, balanceAfterCents, reason, shortCode, eventKey],
    );

  /** @param {Queryable} q @param {string} eventKey */
  const recorded = async (q, eventKey) =>
    (await q.query(`SELECT 1 FROM ledger WHERE event_key = $1`, [eventKey])).rows.length > 0;

  return {
    /**
     * Creates the account with its opening credit the first time a user signs in; later calls do nothing.
     * @param {string} clientUserId @param {number} openingCents
     */
    async open(clientUserId, openingCents) {
      await db.transaction(async (tx) => {
        const created = await tx.query(
          `INSERT INTO accounts (client_user_id, balance_cents) VALUES ($1, $2)
           ON CONFLICT (client_user_id) DO NOTHING RETURNING balance_cents`,
          [clientUserId, openingCents],
        );
        if (created.rows.length === 1 && openingCents > 0)
          await writeEntry(tx, clientUserId, openingCents, openingCents, 'opening', 'Welcome credit', '', null);
      });
    },

    /**
     * Takes `amountCents` if the balance covers it: one conditional UPDATE, so concurrent deducts are
     * serialised by the row lock and can never overdraw. The ledger row is written in the same
     * transaction. `signal` is the webhook's deadline: once it fires the service has been told "not
     * paid", so the deduct is rolled back instead of committed. An event already paid (its `eventKey`
     * is in the ledger: a resend) is answered true again and takes nothing.
     * @param {{ clientUserId: string, amountCents: number, reason: string, shortCode: string, eventKey: string }} charge
     * @param {AbortSignal} [signal]
     * @returns {Promise<boolean>} true when the points were taken, now or by the same event before
     */
    async deduct({ clientUserId, amountCents, reason, shortCode, eventKey }, signal) {
      try {
        return await db.transaction(async (tx) => {
          if (await recorded(tx, eventKey)) return true;
          const updated = await tx.query(
            `UPDATE accounts SET balance_cents = balance_cents - $2
             WHERE client_user_id = $1 AND balance_cents >= $2 RETURNING balance_cents`,
            [clientUserId, amountCents],
          );
          if (updated.rows.length === 0) return false; // unknown user or not enough points: nothing changed
          const balanceAfter = Number(updated.rows[0]?.balance_cents);
          await writeEntry(tx, clientUserId, -amountCents, balanceAfter, 'deduct', reason, shortCode, eventKey);
          if (signal?.aborted) throw new Rollback();
          return true;
        });
      } catch (error) {
        if (error instanceof Rollback) return false;
        // A concurrent copy of the same event committed first: it paid, this one was rolled back.
        if (isUniqueViolation(error)) return true;
        throw error;
      }
    },

    /**
     * Gives `amountCents` back, once, and never more than the user's charges for that table that are
     * not refunded yet: a refund returns a charge, it does not create money. The same event delivered
     * twice (its `eventKey` is in the ledger) is recorded once.
     * @param {{ clientUserId: string, amountCents: number, reason: string, shortCode: string, eventKey: string }} refund
     * @returns {Promise<'refunded' | 'already-refunded' | 'exceeds-charges'>} `exceeds-charges` changed nothing
     */
    async refund({ clientUserId, amountCents, reason, shortCode, eventKey }) {
      try {
        return await db.transaction(async (tx) => {
          // The account row's lock puts this user's refunds in a line, so two cannot both pass the cap.
          const account = await tx.query(`SELECT 1 FROM accounts WHERE client_user_id = $1 FOR UPDATE`, [clientUserId]);
          if (account.rows.length === 0) throw new Error(`No ledger account for the refunded user.`);
          if (await recorded(tx, eventKey)) return /** @type {const} */ ('already-refunded');
          const open = await tx.query(
            `SELECT COALESCE(-SUM(change_cents), 0) AS cents FROM ledger
             WHERE client_user_id = $1 AND short_code = $2 AND kind IN ('deduct', 'refund')`,
            [clientUserId, shortCode],
          );
          if (amountCents > Number(open.rows[0]?.cents)) return /** @type {const} */ ('exceeds-charges');
          const updated = await tx.query(
            `UPDATE accounts SET balance_cents = balance_cents + $2 WHERE client_user_id = $1 RETURNING balance_cents`,
            [clientUserId, amountCents],
          );
          const balanceAfter = Number(updated.rows[0]?.balance_cents);
          await writeEntry(tx, clientUserId, amountCents, balanceAfter, 'refund', reason, shortCode, eventKey);
          return /** @type {const} */ ('refunded');
        });
      } catch (error) {
        // A concurrent or earlier copy holds the key: its credit stands, this one was rolled back.
        if (isUniqueViolation(error)) return 'already-refunded';
        throw error;
      }
    },

    /** @param {string} clientUserId @returns {Promise<number | undefined>} */
    async balance(clientUserId) {
      const { rows } = await db.query(`SELECT balance_cents FROM accounts WHERE client_user_id = $1`, [clientUserId]);
      return rows.length === 0 ? undefined : Number(rows[0]?.balance_cents);
    },

    /** @param {string} clientUserId @param {number} [limit] @returns {Promise<LedgerEntry[]>} */
    async entries(clientUserId, limit = 20) {
      const { rows } = await db.query(
        `SELECT id, kind, change_cents, balance_after_cents, reason, short_code, created_at
         FROM ledger WHERE client_user_id = $1 ORDER BY id DESC LIMIT $2`,
        [clientUserId, limit],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        kind: /** @type {LedgerEntry['kind']} */ (row.kind),
        changeCents: Number(row.change_cents),
        balanceAfterCents: Number(row.balance_after_cents),
        reason: String(row.reason),
        shortCode: String(row.short_code),
        createdAt: new Date(/** @type {string | Date} */ (row.created_at)).toISOString(),
      }));
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof createLedger>>} Ledger */

// @ts-check
// The Hono example's ledger and inbox: the interfaces of examples/express/ledger.js and inbox.js, kept in
// this process's memory, because the same code has to run on workerd, where neither PGlite (WebAssembly
// compiled at run time, a file system) nor a TCP Postgres client is available to a Worker. A real app puts
// these behind its database (on Cloudflare: D1 or a Durable Object; elsewhere Postgres as the Express
// example does). Everything here is lost when the process (or the Worker's isolate) ends.

/** @typedef {import('../express/ledger.js').LedgerEntry} LedgerEntry */
/** @typedef {import('../express/inbox.js').InboxMessage} InboxMessage */

/**
 * The key that makes one webhook delivery one ledger entry: a hash of the event's body, as
 * examples/express/ledger.js computes it, with Web Crypto (node:crypto is not on every runtime).
 * @param {{ raw: Readonly<Record<string, unknown>> }} event a parsed webhook event of hub-embed/server
 */
export async function eventKeyOf(event) {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(event.raw))),
  );
  return btoa(String.fromCharCode(...digest))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

export function createMemoryLedger() {
  /** @type {Map<string, number>} */
  const balances = new Map();
  /** @type {Map<string, LedgerEntry[]>} newest last */
  const entriesOf = new Map();
  /** Event keys already applied: a resend of the same body changes nothing. @type {Set<string>} */
  const applied = new Set();
  let nextId = 1;

  /** @param {string} clientUserId @param {LedgerEntry['kind']} kind @param {number} changeCents @param {string} reason @param {string} shortCode */
  const write = (clientUserId, kind, changeCents, reason, shortCode) => {
    const balanceAfterCents = (balances.get(clientUserId) ?? 0) + changeCents;
    balances.set(clientUserId, balanceAfterCents);
    const list = entriesOf.get(clientUserId) ?? [];
    list.push({
      id: nextId++,
      kind,
      changeCents,
      balanceAfterCents,
      reason,
      shortCode,
      createdAt: new Date().toISOString(),
    });
    entriesOf.set(clientUserId, list);
  };

  // Each method below checks and writes without an await in between: JavaScript runs it to the end
  // before another request's code runs, which is what the SQL ledger's transactions and row locks give.
  return {
    /** @param {string} clientUserId @param {number} openingCents */
    async open(clientUserId, openingCents) {
      if (balances.has(clientUserId)) return;
      balances.set(clientUserId, 0);
      if (openingCents > 0) write(clientUserId, 'opening', openingCents, 'Welcome credit', '');
    },

    /**
     * Takes `amountCents` if the balance covers it. `signal` is the webhook's deadline: once it has fired
     * the service was told "not paid", so nothing is taken. An event already paid is answered true again.
     * @param {{ clientUserId: string, amountCents: number, reason: string, shortCode: string, eventKey: string }} charge
     * @param {AbortSignal} [signal]
     */
    async deduct({ clientUserId, amountCents, reason, shortCode, eventKey }, signal) {
      if (applied.has(eventKey)) return true;
      const balance = balances.get(clientUserId);
      if (balance === undefined || balance < amountCents || signal?.aborted) return false;
      applied.add(eventKey);
      write(clientUserId, 'deduct', -amountCents, reason, shortCode);
      return true;
    },

    /**
     * Gives `amountCents` back, once, and never more than that table's charges not refunded yet.
     * @param {{ clientUserId: string, amountCents: number, reason: string, shortCode: string, eventKey: string }} refund
     * @returns {Promise<'refunded' | 'already-refunded' | 'exceeds-charges'>}
     */
    async refund({ clientUserId, amountCents, reason, shortCode, eventKey }) {
      if (!balances.has(clientUserId)) throw new Error('No ledger account for the refunded user.');
      if (applied.has(eventKey)) return 'already-refunded';
      const open = -(entriesOf.get(clientUserId) ?? [])
        .filter((entry) => entry.shortCode === shortCode && entry.kind !== 'opening')
        .reduce((sum, entry) => sum + entry.changeCents, 0);
      if (amountCents > open) return 'exceeds-charges';
      applied.add(eventKey);
      write(clientUserId, 'refund', amountCents, reason, shortCode);
      return 'refunded';
    },

    /** @param {string} clientUserId @returns {Promise<number | undefined>} */
    async balance(clientUserId) {
      return balances.get(clientUserId);
    },

    /** @param {string} clientUserId @param {number} [limit] @returns {Promise<LedgerEntry[]>} newest first */
    async entries(clientUserId, limit = 20) {
      return (entriesOf.get(clientUserId) ?? []).slice(-limit).reverse();
    },
  };
}

/** @typedef {ReturnType<typeof createMemoryLedger>} MemoryLedger */

export function createMemoryInbox() {
  /** @type {Map<string, InboxMessage[]>} newest last */
  const messages = new Map();
  /** Kept per user; older ones are dropped so a stream of notifications cannot fill the memory. */
  const KEEP = 50;
  return {
    /** @param {string} clientUserId @param {string} event @param {{ title: string, content: string, linkUrl: string }} notification */
    async add(clientUserId, event, { title, content, linkUrl }) {
      const list = messages.get(clientUserId) ?? [];
      list.push({ event, title, content, linkUrl, receivedAt: new Date().toISOString() });
      messages.set(clientUserId, list.slice(-KEEP));
    },
    /** @param {string} clientUserId @param {number} [limit] @returns {Promise<InboxMessage[]>} newest first */
    async latest(clientUserId, limit = 10) {
      return (messages.get(clientUserId) ?? []).slice(-limit).reverse();
    },
  };
}

// @ts-check
// One small interface over two Postgres clients, so the ledger's SQL is the same on both: PGlite
// (Postgres compiled to WebAssembly, in this process, nothing to install) by default, and a real
// Postgres server through `pg` when DATABASE_URL is set.

/**
 * @typedef {{ rows: Record<string, unknown>[] }} Rows
 * @typedef {{ query: (sql: string, params?: unknown[]) => Promise<Rows> }} Queryable
 * @typedef {Queryable & {
 *   exec: (sql: string) => Promise<unknown>,
 *   transaction: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>,
 *   close: () => Promise<void>,
 *   kind: 'pglite' | 'postgres',
 * }} Database
 */

/**
 * @param {{ databaseUrl?: string | undefined, pgliteDataDir?: string | undefined }} [options]
 *   `databaseUrl`: a postgres:// URL (default: the DATABASE_URL variable).
 *   `pgliteDataDir`: a folder that keeps PGlite's data between runs (default: in memory).
 * @returns {Promise<Database>}
 */
export async function openDatabase(options = {}) {
  // An empty databaseUrl means PGlite even when DATABASE_URL is set.
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  return databaseUrl ? openPostgres(databaseUrl) : openPglite(options.pgliteDataDir ?? process.env.PGLITE_DATA_DIR);
}

/** @param {string | undefined} dataDir @returns {Promise<Database>} */
async function openPglite(dataDir) {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dataDir ?? 'memory://');
  return {
    kind: 'pglite',
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    // PGlite has one connection: a transaction holds it, so transactions run one after another.
    transaction: (work) => db.transaction((tx) => work(tx)),
    close: () => db.close(),
  };
}

/** @param {string} connectionString @returns {Promise<Database>} */
async function openPostgres(connectionString) {
  const { default: pg } = await import('pg');
  // bigint columns as numbers: every amount here is a count of cents far below 2^53.
  pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));
  const pool = new pg.Pool({ connectionString, max: 10 });
  return {
    kind: 'postgres',
    query: (sql, params) => pool.query(sql, params),
    // Without parameters pg uses the simple protocol, which runs several statements.
    exec: (sql) => pool.query(sql),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

import type { Database } from '../../examples/express/database.js';

/**
 * One process's view of the database: after `crash()` every query of that process fails, as a dead
 * process's would; what it committed stays, and the next process gets a fresh view of the same database.
 */
export function processView(db: Database): { db: Database; crash(): void } {
  let dead = false;
  const alive = <T>(work: () => Promise<T>) => (dead ? Promise.reject(new Error('crashed')) : work());
  return {
    db: {
      ...db,
      query: (sql, params) => alive(() => db.query(sql, params)),
      exec: (sql) => alive(() => db.exec(sql)),
      transaction: (work) => alive(() => db.transaction(work)),
    },
    crash: () => {
      dead = true;
    },
  };
}

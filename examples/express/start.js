// @ts-check
// `npm run example:express`: the example and the simulator in one process; Ctrl+C stops both.
import { startExample } from './server.js';

const running = await startExample();
console.log(`
  Express example:  ${running.url}   (open it, sign in as Alice, open a table, press Pay)
  points page:      ${running.origin}/points
  service API:      ${running.hub.baseUrl}${running.simulator ? '  (local simulator)' : ''}
  form site:        ${running.hub.formUrl}
  ledger database:  ${running.db.kind === 'pglite' ? 'PGlite, in memory (set DATABASE_URL for Postgres)' : 'Postgres (DATABASE_URL)'}
`);

const stop = () =>
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

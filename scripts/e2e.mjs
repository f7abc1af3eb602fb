// npm run ci -- e2e: the end-to-end suite (test/e2e/*.test.ts), each file in each engine of HUB_ENGINES
// (default chromium, webkit, firefox; the harness reads it), one file after the other. Two files run in
// Chromium only, because their WebKit and Firefox runs add nothing (docs/engines.md#one-engine): api-key
// (every page of the other files checks the wire for the key in all three engines already) and
// token-expiry and token-refused (the widget's own token timing and renewal, the same JavaScript in every engine),
// plain-bundle-bridge (the order in which the bundle's own modules run), react-server-tag (what React's server
// writes, which every engine's HTML parser lowercases alike).
// Arguments narrow the run to those files: `node scripts/e2e.mjs test/e2e/csp.test.ts` (after a build).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const CHROMIUM_ONLY = [
  'test/e2e/api-key.test.ts',
  'test/e2e/token-expiry.test.ts',
  'test/e2e/token-refused.test.ts',
  'test/e2e/plain-bundle-bridge.test.ts',
  'test/e2e/react-server-tag.test.ts',
];
const asked = process.argv.slice(2);
const files = asked.length
  ? asked
  : readdirSync('test/e2e')
      .filter((name) => name.endsWith('.test.ts'))
      .sort()
      .map((name) => `test/e2e/${name}`);

/** Runs `list` with node:test, one file at a time; the exit status of the run. */
function run(list, env) {
  if (list.length === 0) return 0;
  const args = ['--import', './scripts/ts-register.mjs', '--test', '--test-concurrency=1', ...list];
  return spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

const everyEngine = files.filter((file) => !CHROMIUM_ONLY.includes(file));
const chromiumOnly = files.filter((file) => CHROMIUM_ONLY.includes(file));
console.log(`== ${everyEngine.length} file(s) in ${process.env.HUB_ENGINES ?? 'chromium,webkit,firefox'}`);
const first = run(everyEngine, {});
console.log(`== ${chromiumOnly.join(' ') || 'no file'} in Chromium only`);
const second = run(chromiumOnly, { HUB_ENGINES: 'chromium' });
process.exit(first || second);

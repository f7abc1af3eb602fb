// npm run ci -- e2e: the end-to-end suite (test/e2e/*.test.ts), each file in each engine of HUB_ENGINES
// (default chromium, webkit, firefox; the harness reads it), one file after the other, twice: as the pages
// are written, the element drawing its own first view, then with HUB_FIRST_VIEW=server, each page's elements
// written with a server's first view (test/e2e/server-first-views.ts) that the element takes over.
//
// Some files run in Chromium only, because their WebKit and Firefox runs add nothing (docs/engines.md#one-engine):
// api-key (every page of the other files checks the wire for the key in all three engines already),
// token-expiry and token-refused (the widget's own token timing and renewal, the same JavaScript in every
// engine), plain-bundle-bridge (the order in which the bundle's own modules run), react-server-tag (what
// React's server writes, which every engine's HTML parser lowercases alike).
//
// The second pass leaves out the files none of whose pages holds an element a server would draw for
// (NO_SERVER_VIEW): in it, a file that serves its pages through a first-view writer and draws none fails
// (server-first-views.ts), so a file that stops drawing views is named here, not run twice for nothing.
//
// Arguments narrow the run to those files: `node scripts/e2e.mjs test/e2e/csp.test.ts` (after a build);
// `--pass client` or `--pass server` runs one pass.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const CHROMIUM_ONLY = [
  'test/e2e/api-key.test.ts',
  'test/e2e/token-expiry.test.ts',
  'test/e2e/token-refused.test.ts',
  'test/e2e/plain-bundle-bridge.test.ts',
  'test/e2e/react-server-tag.test.ts',
];

/** The files with no element a server draws for, each with why; the second pass leaves them out. */
const NO_SERVER_VIEW = {
  'test/e2e/console.test.ts': "the simulator's console, no widget",
  'test/e2e/demo-backend.test.ts': 'Node only, no page',
  'test/e2e/demo-page.test.ts': "the demo's own page, which draws its widget in the browser",
  'test/e2e/engine-clicks.test.ts': "the engines' click, on pages of plain elements",
  'test/e2e/first-view.test.ts': "the server's first view itself, in both passes alike",
  'test/e2e/first-view-takeover.test.ts': 'pages written with a first view in both passes',
  'test/e2e/hybrid-app.test.ts':
    "an app's page whose token route is its backend's, on another origin, with a bearer session the page's server never sees",
  'test/e2e/plain-bundle-bridge.test.ts': 'pages of a native host, whose token comes from the bridge',
  'test/e2e/prefetch.test.ts':
    "the widget's own first load answered from the token's prefetch, which a view's page takes the place of",
  'test/e2e/proxy.test.ts': 'Node only, no page',
  'test/e2e/react-server-tag.test.ts': "what React's server writes for the element",
};

const args = process.argv.slice(2);
const passAt = args.indexOf('--pass');
const passes = passAt === -1 ? ['client', 'server'] : [args.splice(passAt, 2)[1]];
if (!passes.every((pass) => pass === 'client' || pass === 'server')) {
  console.error(`scripts/e2e.mjs: --pass takes client or server, not "${passes[0]}".`);
  process.exit(2);
}
const files = args.length
  ? args
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

let status = 0;
for (const pass of passes) {
  const mode = pass === 'server' ? { HUB_FIRST_VIEW: 'server' } : { HUB_FIRST_VIEW: '' };
  const named = pass === 'server' ? files.filter((file) => !(file in NO_SERVER_VIEW)) : files;
  const how = pass === 'server' ? "with the server's first views" : 'as written';
  const everyEngine = named.filter((file) => !CHROMIUM_ONLY.includes(file));
  const chromiumOnly = named.filter((file) => CHROMIUM_ONLY.includes(file));
  console.log(`== ${everyEngine.length} file(s) in ${process.env.HUB_ENGINES ?? 'chromium,webkit,firefox'}, ${how}`);
  const inEvery = run(everyEngine, mode);
  console.log(`== ${chromiumOnly.join(' ') || 'no file'} in Chromium only, ${how}`);
  const inChromium = run(chromiumOnly, { ...mode, HUB_ENGINES: 'chromium' });
  status ||= inEvery || inChromium;
}
process.exit(status);

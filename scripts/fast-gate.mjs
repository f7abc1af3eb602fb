// npm test, the fast gate: what a contributor runs before every commit. The type check (tsc with the API
// reports of api/) runs beside the unit, node and browser test projects, not before them: on two cores the
// tests leave a core idle often enough that the two together take about as long as the tests alone. The
// examples' own type check (vue-tsc, examples/tsconfig.json) runs in the snippets lane, next to the check
// of the same examples against the packed package, rather than lengthen the gate.
// The type check's output is held and shown when it ends, so it never interleaves with the test report.
// Arguments go to vitest: `npm test -- test/core/urls.test.ts` (the type check still runs).
// The slower lanes (`npm run ci -- meta`, a11y, e2e, …: scripts/surface.mjs) run after it in .ci/run.
import { spawn, spawnSync, execFileSync } from 'node:child_process';

const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
// The commit-msg hook is one command per clone (CONTRIBUTING.md, Set-up), not an npm lifecycle script: a
// `prepare` script would ship in package.json, where npm counts it among the install scripts of users'
// installs. A clone without it hears so here, before the commit that the hook would have checked.
const inGit = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' }).stdout?.trim() === 'true';
const hooksPath = spawnSync('git', ['config', 'core.hooksPath'], { encoding: 'utf8' }).stdout?.trim();
if (inGit && hooksPath !== '.githooks')
  console.log(
    '\n!!! git runs no commit-msg check here: run `git config core.hooksPath .githooks` once (CONTRIBUTING.md).\n',
  );
// The simulator's console page is a module built from its own sources; both halves import it.
execFileSync(process.execPath, ['scripts/console-bundle.mjs'], { stdio: 'inherit' });

/** Runs a command; resolves to its exit status, with its output when `hold` (else shown as it comes). */
function run(command, args, hold) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (hold) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const bin = (name) => `node_modules/.bin/${name}`;
/** The vitest projects of the gate (vitest.config.ts); every other project is a lane. */
const PROJECTS = ['unit', 'node', 'node-fresh', 'browser'];
const typecheck = (async () => {
  // tsc's checks and the API reports (api/*.api.md) from one compiler program (scripts/typecheck.mjs).
  const types = await run(process.execPath, ['scripts/typecheck.mjs'], true);
  return { ...types, what: 'scripts/typecheck.mjs: tsc and the API reports' };
})().then((result) => {
  // A failure shows at once (the first red signal); a pass is one line in the summary at the end.
  const line = `== type check (${result.what}): ${result.code === 0 ? 'passed' : 'FAILED'} after ${seconds()}`;
  if (result.code !== 0) console.log(`\n${line}\n${result.output.trimEnd()}`);
  return { code: result.code, line };
});
const tests = run(
  bin('vitest'),
  ['run', ...PROJECTS.flatMap((name) => ['--project', name]), ...process.argv.slice(2)],
  false,
).then(({ code }) => ({
  code,
  line: `== vitest (${PROJECTS.join(', ')}): ${code === 0 ? 'passed' : 'FAILED'} after ${seconds()}`,
}));

const [typed, tested] = await Promise.all([typecheck, tests]);
const failed = typed.code !== 0 || tested.code !== 0;
console.log(`\n${typed.line}\n${tested.line}\n== npm test: ${failed ? 'FAILED' : 'passed'} in ${seconds()}`);
process.exit(failed ? 1 : 0);

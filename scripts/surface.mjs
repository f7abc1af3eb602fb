// The contributor surface in one table: every npm script, every CI lane and every generated file, each with
// the one line that says why it exists. .ci/run runs the lanes from LANES (`--shell`), and CONTRIBUTING.md's
// three tables are rendered from here, so the page a newcomer reads and what CI runs cannot drift apart;
// test/package/surface.test.ts fails when package.json gains a script, or .ci/run a lane, without a line here.
//   node scripts/surface.mjs           rewrites CONTRIBUTING.md's generated tables
//   node scripts/surface.mjs --check   exit status 1 when they differ from this module
//   node scripts/surface.mjs --shell   the lanes as .ci/run's `lane`/`lane_beside` calls, one a line
//   node scripts/surface.mjs --names   the lanes' names, one a line
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NODE_RELEASES } from './node-release.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// A lane builds only when a source changed since the last build (scripts/build-inputs.mjs), so the one build
// of a CI run serves every lane after it, and a lane run alone still tests today's sources.
const BUILT = 'node scripts/build.mjs --if-stale';
// The simulator's console is a generated module that the vitest projects import; it rebuilds when stale.
const CONSOLE = 'node scripts/console-bundle.mjs';
const TS_NODE = 'node --import ./scripts/ts-register.mjs';
// The lanes that install the tarball pack it once per change (scripts/pack.mjs prints its path).
const PACKED = 'HUB_EMBED_PACKED=$(node scripts/pack.mjs)';
const CONTRACT_HOOK = 'HUB_MOCK_CONTRACT_CHECK=test/contract/simulator-hook.mjs';
// Every maintained Node line (scripts/node-release.mjs), installed before the tests that run each.
const NODE_LINES = `node scripts/node-release.mjs ${Object.keys(NODE_RELEASES).join(' ')}`;

/**
 * package.json's scripts: `name` runs `command` (the two are compared by the test), for the `why` given.
 * Anything slower than the fast gate is a lane below, run with `npm run ci -- <lane>`, not a script.
 */
export const SCRIPTS = [
  { name: 'test', command: 'node scripts/fast-gate.mjs', why: 'the fast gate, before every commit' },
  {
    name: 'typecheck',
    command: 'node scripts/typecheck.mjs && vue-tsc --noEmit -p examples',
    why: 'the type check alone: tsc, the API reports and the examples (vue-tsc)',
  },
  {
    name: 'api',
    command: 'node scripts/typecheck.mjs --write',
    why: 'rewrites the API reports (`api/*.api.md`) after a change to a public signature',
  },
  {
    name: 'lint',
    command: `${CONSOLE} && eslint --max-warnings 0 . && prettier --check .`,
    why: 'ESLint (type-aware, so the console module is made first) and Prettier',
  },
  { name: 'format', command: 'prettier --write . && eslint --fix .', why: 'fixes what lint can fix' },
  {
    name: 'build',
    command: 'node scripts/build.mjs',
    why: 'dist/: every entry, the `<script>` bundles and their size budgets, the manifest and editor data',
  },
  {
    name: 'demo',
    command: `${CONSOLE} && ${TS_NODE} demo/serve.ts`,
    why: 'the demo page and its developer backend against the simulator',
  },
  {
    name: 'mock',
    command: `${CONSOLE} && ${TS_NODE} packages/hub-embed-mock/src/cli.ts`,
    why: 'the simulator from its sources, with the CLI flags of `npx hub-embed-mock`',
  },
  ...['express', 'hono'].map((name) => ({
    name: `example:${name}`,
    command: `node examples/ensure-build.mjs && node examples/${name}/start.js`,
    why: `examples/${name} as an integrator starts it, against the simulator`,
  })),
  ...['react', 'vue'].map((name) => ({
    name: `example:${name}`,
    command: `node examples/ensure-build.mjs && node examples/vite-dev.js ${name}`,
    why: `examples/${name} in Vite's dev server, against the simulator`,
  })),
  {
    name: 'bench',
    command: `${BUILT} && ${TS_NODE} bench/run.ts`,
    why: 'every benchmark with its reference (`-- --smoke`: each once, no verdicts); writes bench/results.json',
  },
  {
    name: 'size:why',
    command: 'node scripts/size-why.mjs',
    why: "which modules a `<script>` bundle's bytes come from (`-- webview` for the WebView one)",
  },
  {
    name: 'screenshots',
    command: `${TS_NODE} scripts/screenshots.mjs`,
    why: "rewrites docs/'s screenshots of the demo and the console after a visible change",
  },
  {
    name: 'release',
    command: 'node scripts/release.mjs',
    why: 'the one release step: version, build, README tag, CHANGELOG section, benchmarks page, tarball',
  },
  { name: 'ci', command: 'bash .ci/run', why: 'CI: every lane below, or those named (`npm run ci -- e2e hosts`)' },
];

/**
 * .ci/run's lanes, in the order it runs them after the Debian packages and the Node release are in place.
 * `beside`: a lane that leaves a core idle (scripted pauses, timers, one browser) starts in the background
 * beside the lanes after it; its output prints when the run collects it at the end. Faults, the longest,
 * starts right after the build. e2e drives one browser at a time, and with the suite's second pass beside it
 * (first-view) keeps about 1.5 of the 2 cores busy (user and system time over wall time, 0.74 for e2e alone):
 * lint, meta and cross-engine, which need nothing after the build, take the rest of that time, started just
 * before first-view. a11y keeps about one core busy beside the lanes after e2e; hosts mostly waits on its
 * WebViews' timers, beside the android to snippets lanes; certify mostly waits on its backends, beside the
 * package and metro lanes. That keeps a clean-clone run on 2 cores under 45 minutes.
 */
export const LANES = [
  { name: 'install', command: 'npm ci --no-audit --no-fund', why: 'a clean install from the lock file' },
  {
    name: 'commits',
    command: 'node scripts/commit-msg.mjs --since ffbb18d',
    why: 'every commit message since the rules were written (below)',
  },
  {
    name: 'build',
    command: 'node scripts/tree-unchanged.mjs npm run build',
    why: "the run's one build, within its size budgets, leaving git status as it was",
  },
  {
    name: 'faults',
    beside: true,
    command: `${BUILT} && ${TS_NODE} --test --test-concurrency=4 test/faults/*.test.ts`,
    why: "scripted use under injected faults (the test name holds the seed: `FAULT_SEED=<seed>` replays it), paid recharges under lost answers with no double credit, and the bench's smoke run",
  },
  { name: 'test', command: 'npm test', why: 'the fast gate, with Chromium required' },
  {
    name: 'manifest',
    command: 'node scripts/manifest.mjs --check',
    why: "docs/elements.md's tables and the framework bindings are the elements' own (the manifest itself is built into dist/)",
  },
  {
    name: 'docs',
    command: 'node scripts/doc-regions.mjs --check',
    why: "README.md's and docs/server.md's code blocks equal the example files they quote; the README's CDN tag names this version",
  },
  {
    name: 'integration',
    command: `${BUILT} && ${CONSOLE} && ${CONTRACT_HOOK} vitest run --project integration --maxWorkers=2`,
    why: "node tests that start processes and services: the CLI, Redis, PGlite, Postgres, the examples' servers",
  },
  { name: 'lint', beside: true, command: 'npm run lint', why: 'ESLint (type-aware, strict) and Prettier' },
  {
    name: 'meta',
    beside: true,
    command: `${CONSOLE} && vitest run --project meta`,
    why: 'the React Native declarations compiled on their own; the naming and idiom lint rules, each shown to fire',
  },
  {
    name: 'cross-engine',
    beside: true,
    command: `${CONSOLE} && vitest run --project components-happy-dom --project core-chromium`,
    why: 'each DOM test in the engine the gate does not run it in: the components in happy-dom, the core and the bridge in Chromium',
  },
  {
    name: 'first-view',
    beside: true,
    command: `${BUILT} && ${CONTRACT_HOOK} node scripts/e2e.mjs --pass server`,
    why: "the end-to-end suite again, each page written with the server's first view for the element to take over (docs/engines.md)",
  },
  {
    name: 'e2e',
    command: `${BUILT} && ${CONTRACT_HOOK} node scripts/e2e.mjs --pass client`,
    why: 'the end-to-end suite in Chromium, WebKit and Firefox (docs/engines.md)',
  },
  {
    name: 'a11y',
    beside: true,
    command: `${CONSOLE} && vitest run --project a11y`,
    why: 'axe in every state of every element, light and dark, en and zh-CN, and each focus ring read back from a screenshot',
  },
  {
    name: 'hosts',
    beside: true,
    command: [
      `${BUILT}`,
      `${TS_NODE} --test --test-concurrency=1 test/native-hosts/*.test.ts`,
      `HUB_RN_WEBVIEW=16 ${TS_NODE} --test --test-concurrency=1 test/native-hosts/react-native*.test.ts`,
      `HUB_RN_WEBVIEW=14 ${TS_NODE} --test --test-concurrency=1 test/native-hosts/react-native.test.ts test/native-hosts/react-native-frames.test.ts`,
    ].join(' && '),
    why: '`<HubEmbedView>` on the harness as react-native-webview 13, 16 and 14 behave, and the iOS path in a real WebKitGTK',
  },
  {
    name: 'android',
    command: `${TS_NODE} --test --test-concurrency=1 test/native-hosts/android/*.test.ts`,
    why: 'the Kotlin host against every protocol vector on a JVM',
  },
  {
    name: 'runtimes',
    // deno and workerd without saving: the registry lacks their other platforms' binary packages, so a lock
    // file holding them cannot be written; package.json's allowScripts lets their install scripts run.
    command: [
      `${BUILT}`,
      'npm install --no-save --no-audit --no-fund deno@2.9.6 workerd@1.20261117.1',
      NODE_LINES,
      `${TS_NODE} --test test/runtimes/*.test.ts`,
    ].join(' && '),
    why: 'the server toolkit on every runtime docs/server.md names: each maintained Node, Bun, Deno and workerd',
  },
  {
    name: 'examples',
    command: `${BUILT} && HUB_ENGINES=chromium ${TS_NODE} --test --test-concurrency=1 test/examples/e2e/*.test.ts`,
    why: 'each example started with its own npm command and driven in Chromium (after runtimes: hono runs on Bun and Deno too)',
  },
  {
    name: 'snippets',
    command: 'vue-tsc --noEmit -p examples && node scripts/check-snippets.mjs',
    why: 'the examples type-check against the sources; every README and docs snippet and the examples compile against the tarball',
  },
  {
    name: 'certify',
    beside: true,
    command: `${BUILT} && ${TS_NODE} --test --test-concurrency=1 test/examples/certify/*.test.ts`,
    why: '`hub-embed-mock certify` passes the Python, Express, Hono and node:http backends and fails every wrong one of its corpus',
  },
  {
    name: 'package',
    command: `${BUILT} && ${NODE_LINES} && ${PACKED} ${TS_NODE} --test --test-concurrency=1 test/shipped/*.test.ts`,
    why: "what ships, as users' tools read it: imports, publint, Are the Types Wrong, require() on each maintained Node, the types under TypeScript 5.9, 6 and 7, installs beside React 17 and Vue 2.7, the tarball's entries, contents, README tag and size",
  },
  {
    name: 'metro',
    command: `${BUILT} && ${PACKED} ${TS_NODE} --test test/metro/*.test.ts`,
    why: 'every React Native the package claims (test/metro/rows.ts) bundled by Metro with the tarball; every subpath under node10',
  },
  {
    name: 'contract',
    command: `redocly lint openapi.json --extends recommended && ${TS_NODE} --test test/contract/*.test.ts`,
    why: "openapi.json under Redocly's rules; the core's, the server client's and the simulator's types against it; a schema-driven fuzz run",
  },
  {
    name: 'ssr',
    command: `${BUILT} && ${PACKED} ${TS_NODE} --test test/ssr/*.test.ts`,
    why: 'a server-rendered app per stack (test/ssr/apps/) with the tarball, built for production and driven in Chromium',
  },
  {
    name: 'hybrid',
    command: `${BUILT} && ${PACKED} ${TS_NODE} --test test/hybrid/*.test.ts`,
    why: "a Capacitor app made from docs/webview-capacitor.md's page with the tarball, built and synced into Android and iOS projects",
  },
];

/**
 * What a command writes into the repository, which command, and what fails when it is stale: a file here is
 * edited only through its command. What only the build writes (dist/, the simulator console's module
 * packages/hub-embed-mock/src/console-ui/bundle.generated.ts) is never committed.
 */
export const GENERATED = [
  {
    file: '`api/*.api.md`',
    by: 'npm run api',
    checked: '`npm test` (scripts/typecheck.mjs)',
    why: "each public entry's signatures, reviewed like code",
  },
  {
    file: "docs/elements.md's tables; src/react/, src/vue/, src/components/members.ts",
    by: 'node scripts/manifest.mjs',
    checked: 'the manifest lane',
    why: "the elements' JSDoc, as a reader and the framework bindings need it (the build runs it too)",
  },
  {
    file: "README.md's and docs/server.md's `from:` code blocks",
    by: 'node scripts/doc-regions.mjs',
    checked: 'the docs lane',
    why: 'the example files they quote, so the docs show code that runs',
  },
  {
    file: '`<subpath>/package.json` (react-native/, server/redis/, …)',
    by: 'node scripts/subpath-folders.mjs',
    checked: '`npm test` (test/package/subpath-folders.test.ts)',
    why: "package.json's exports, for resolvers that ignore them (old Metro, TypeScript node10)",
  },
  {
    file: "README.md's CDN tag, CHANGELOG.md's release section, docs/benchmarks.md",
    by: 'npm run release',
    checked: 'the docs lane (the tag names the version) and the package lane (the packed tag and .sri)',
    why: 'what a release is: its version, its changes, its figures',
  },
  {
    file: 'docs/demo-*.png, docs/engines/*.png',
    by: 'npm run screenshots',
    checked: 'a reader: a screenshot is looked at, not compared',
    why: 'the demo as it looks, in each engine',
  },
  {
    file: 'docs/console-*.png',
    by: 'node scripts/console-screenshots.mjs',
    checked: 'a reader, as above',
    why: "the simulator's console as it looks",
  },
  {
    file: "CONTRIBUTING.md's tables of scripts, lanes and generated files",
    by: 'node scripts/surface.mjs',
    checked: '`npm test` (test/package/surface.test.ts)',
    why: 'this one list, rendered',
  },
];

/** npm's lifecycle names: a script by such a name runs behind a command, so the surface has none. */
const LIFECYCLE = /^(pre|post)|^(install|prepare|prepack|postpack|prepublishOnly|publish)$/;

/**
 * What this module and the repository disagree on: a script of package.json (`scripts`) or a lane of
 * .ci/run (`lanes`, as `.ci/run --list` prints them) without its line here, a line here for neither, a
 * command that differs, a line with no reason, or a lifecycle hook. Empty when they agree.
 */
export function surfaceProblems({ scripts, lanes }) {
  const problems = [];
  const lines = new Map(SCRIPTS.map((line) => [line.name, line]));
  for (const [name, command] of Object.entries(scripts)) {
    const line = lines.get(name);
    if (LIFECYCLE.test(name))
      problems.push(
        `package.json script "${name}" is a lifecycle hook: make its step part of the command that needs it`,
      );
    if (!line) problems.push(`package.json script "${name}" has no line in scripts/surface.mjs`);
    else if (line.command !== command)
      problems.push(`package.json script "${name}" runs \`${command}\`, scripts/surface.mjs says \`${line.command}\``);
  }
  for (const name of lines.keys())
    if (!(name in scripts))
      problems.push(`scripts/surface.mjs has a line for script "${name}", which package.json lacks`);
  const laneNames = LANES.map((lane) => lane.name);
  for (const name of lanes)
    if (!laneNames.includes(name))
      problems.push(`.ci/run runs lane "${name}", which has no line in scripts/surface.mjs`);
  for (const name of laneNames) if (!lanes.includes(name)) problems.push(`.ci/run does not run lane "${name}"`);
  for (const { name, why } of [...SCRIPTS, ...LANES])
    if (!why?.trim()) problems.push(`"${name}" has no reason in scripts/surface.mjs`);
  return problems;
}

const cell = (text) => text.replace(/\|/g, '\\|');
const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');

/** The tables, by the name of the region of CONTRIBUTING.md each fills. */
export const TABLES = {
  scripts: () =>
    table(
      ['script', 'why'],
      SCRIPTS.map(({ name, why }) => [name === 'test' ? '`npm test`' : `\`npm run ${name}\``, why]),
    ),
  lanes: () =>
    table(
      ['lane', 'what it checks'],
      LANES.map(({ name, beside, why }) => [`\`${name}\`${beside ? ' (beside)' : ''}`, why]),
    ),
  generated: () =>
    table(
      ['what', 'written by', 'fails when stale', 'why'],
      GENERATED.map(({ file, by, checked, why }) => [file, `\`${by}\``, checked, why]),
    ),
};

const REGION = /(<!-- generated: (\w+) \(scripts\/surface\.mjs\) -->\n)[\s\S]*?(<!-- end: \2 -->)/g;

/** The page with each generated region filled from this module. */
export function withTables(markdown) {
  return markdown.replace(REGION, (_, start, name, end) => {
    if (!(name in TABLES)) throw new Error(`CONTRIBUTING.md: no table named "${name}" in scripts/surface.mjs.`);
    return `${start}${TABLES[name]()}\n${end}`;
  });
}

/** A word as bash reads it literally: in single quotes, each quote closed, escaped and reopened. */
const quoted = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The lanes as .ci/run's calls: `lane <name> '<command>'` (or `lane_beside`), in running order. */
export function shellLanes() {
  return LANES.map(({ name, beside, command }) => `${beside ? 'lane_beside' : 'lane'} ${name} ${quoted(command)}`).join(
    '\n',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = `${ROOT}CONTRIBUTING.md`;
  if (process.argv.includes('--shell')) {
    console.log(shellLanes());
  } else if (process.argv.includes('--names')) {
    console.log(LANES.map(({ name }) => name).join('\n'));
  } else {
    const text = readFileSync(file, 'utf8');
    const fresh = withTables(text);
    if (process.argv.includes('--check')) {
      if (fresh !== text) {
        console.error("CONTRIBUTING.md's tables differ from scripts/surface.mjs: run `node scripts/surface.mjs`.");
        process.exit(1);
      }
      console.log("CONTRIBUTING.md's tables match scripts/surface.mjs.");
    } else {
      writeFileSync(file, fresh);
      console.log("CONTRIBUTING.md's tables rewritten from scripts/surface.mjs.");
    }
  }
}

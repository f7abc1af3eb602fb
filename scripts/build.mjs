// npm run build: ES modules for every entry, the <script> bundle, declarations, the size budget,
// the SRI hash and the custom-elements manifest. Each step fails the build on error.
// `--if-stale` (what the CI lanes and scripts/pack.mjs run) builds only when dist/ was not built
// from the sources as they are now: a finished build records a hash of its inputs (build-inputs.mjs).
// Everything it prints goes to stderr, its own lines and its tools' alike: scripts/pack.mjs runs it, and
// `$(node scripts/pack.mjs)` must read the tarball's path alone from stdout.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUDGETS, limitOf, NPM_PATH_BUDGET, ROOM } from './size-budgets.mjs';
import { builtFromCurrentSources, recordBuild } from './build-inputs.mjs';
import { viteAppFirstLoad } from './vite-app-size.mjs';
import ts from 'typescript';

const log = (line) => console.error(line);

if (process.argv.includes('--if-stale') && builtFromCurrentSources()) {
  log('dist/ is current: built from these sources already (npm run build rebuilds it anyway)');
  process.exit(0);
}

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: ['inherit', process.stderr, 'inherit'] });
}

/**
 * tsc declares every module it compiles; a user's compiler reaches only those the entries' types lead to (the
 * exports map hides the rest), so the others do not ship: the simulator's internals, the console page's.
 */
function pruneDeclarations(packageJson, typesDir) {
  const { exports } = JSON.parse(readFileSync(packageJson, 'utf8'));
  const base = dirname(packageJson);
  const typeEntries = Object.values(exports).flatMap((target) => (target?.types ? [resolve(base, target.types)] : []));
  const reached = new Set(
    ts
      .createProgram(typeEntries, { noEmit: true, skipLibCheck: true, types: [] })
      .getSourceFiles()
      .map((file) => resolve(file.fileName)),
  );
  const declarations = readdirSync(typesDir, { recursive: true }).filter((name) => name.endsWith('.d.ts'));
  const unreached = declarations.filter((name) => !reached.has(resolve(typesDir, name)));
  for (const name of unreached) rmSync(join(typesDir, name));
  log(
    `${typesDir}: ${declarations.length - unreached.length} declaration files the entries reach, ${unreached.length} others left out`,
  );
}

const MOCK_DIST = 'packages/hub-embed-mock/dist';
rmSync('dist', { recursive: true, force: true });
rmSync(MOCK_DIST, { recursive: true, force: true });
// The simulator's package first: hub-embed/mock re-exports it, and its declarations type that entry.
// The simulator serves its console from a module built here, never committed.
run('node', ['scripts/console-bundle.mjs']);
run('npx', ['vite', 'build', '--mode', 'mock', '--logLevel', 'warn']);
run('npx', ['tsc', '-p', 'packages/hub-embed-mock/tsconfig.build.json']);
pruneDeclarations(resolve('packages/hub-embed-mock/package.json'), `${MOCK_DIST}/types`);

run('npx', ['vite', 'build', '--logLevel', 'warn']);
// The form chunk first: the two <script> bundles carry its integrity value.
run('npx', ['vite', 'build', '--mode', 'form-chunk', '--logLevel', 'warn']);
// Each bundle finds its form half beside it under its own name: a site that serves one bundle serves its pair.
copyFileSync('dist/hub-embed.form.js', 'dist/hub-embed-webview.form.js');
run('npx', ['vite', 'build', '--mode', 'iife', '--logLevel', 'warn']);
run('npx', ['vite', 'build', '--mode', 'iife-webview', '--logLevel', 'warn']);
// The WeChat add-on: a page in a WeChat mini-program's <web-view> loads it after the WebView bundle.
run('npx', ['vite', 'build', '--mode', 'wechat', '--logLevel', 'warn']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
pruneDeclarations(resolve('package.json'), 'dist/types');

let over = false;
for (const entry of BUDGETS) {
  const { file, budget } = entry;
  const room = budget - limitOf(entry);
  const bundle = readFileSync(file);
  const gzip = gzipSync(bundle, { level: 9 }).length;
  const sri = `sha384-${createHash('sha384').update(bundle).digest('base64')}`;
  writeFileSync(`${file}.sri`, `${sri}\n`);
  // What a page loads later, on intent: the form half beside the bundle.
  const later = gzipSync(readFileSync(file.replace('.iife.js', '.form.js')), { level: 9 }).length;
  log(
    `${file}: ${bundle.length} bytes, ${gzip} bytes gzip -9 (budget ${budget}${room ? '' : ', its ceiling'}, ${budget - gzip} B of room, at least ${room}); ` +
      `with the form half it loads on intent ${gzip + later} bytes`,
  );
  log(`${file}.sri: ${sri}`);
  if (gzip > limitOf(entry)) {
    console.error(
      `SIZE BUDGET EXCEEDED: ${file} is ${gzip} bytes gzip -9, which leaves ${budget - gzip} < ${room} B under its ${budget} B budget`,
    );
    over = true;
  }
}
// The npm path: what a Vite app ships on its first load for `import 'hub-embed/define'` (scripts/vite-app-size.mjs),
// held with Vite's preload helper (an app without lazy imports of its own) to NPM_PATH_BUDGET, with ROOM free.
const app = await viteAppFirstLoad();
log(
  `import 'hub-embed/define' adds ${app.bytes} bytes, ${app.gzip} bytes gzip -9 to a Vite app's first load; ` +
    `an app with no lazy import of its own loads ${app.alone.gzip} bytes gzip -9 with Vite's preload helper ` +
    `(budget ${NPM_PATH_BUDGET}, ${NPM_PATH_BUDGET - app.alone.gzip} B of room, at least ${ROOM})`,
);
if (app.alone.gzip > NPM_PATH_BUDGET - ROOM) {
  console.error(
    `SIZE BUDGET EXCEEDED: a Vite app whose only code is import 'hub-embed/define' loads ${app.alone.gzip} bytes gzip -9 ` +
      `first, which leaves ${NPM_PATH_BUDGET - app.alone.gzip} < ${ROOM} B under its ${NPM_PATH_BUDGET} B budget`,
  );
  over = true;
}
if (over) process.exit(1);
// Not a first file (only WeChat pages load it, after the WebView bundle), so no budget: its bytes are shown.
const addon = 'dist/hub-embed-wechat.js';
const addonBytes = readFileSync(addon);
const addonSri = `sha384-${createHash('sha384').update(addonBytes).digest('base64')}`;
writeFileSync(`${addon}.sri`, `${addonSri}\n`);
log(`${addon}: ${addonBytes.length} bytes, ${gzipSync(addonBytes, { level: 9 }).length} bytes gzip -9`);
log(`${addon}.sri: ${addonSri}`);

// Every file imports only what package.json declares and carries no third-party module (dist-imports.mjs).
run('node', ['scripts/dist-imports.mjs']);
run('node', ['scripts/manifest.mjs']);
// The editors' data (VS Code, JetBrains), from the manifest just written.
run('node', ['scripts/editor-data.mjs']);
// Last, after every step that may rewrite a source (the manifest syncs generated files): what dist/ was built from.
recordBuild();

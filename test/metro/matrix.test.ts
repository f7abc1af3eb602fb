// Every React Native the package claims (`npm run ci -- metro`, issue 43 item 4 and issue 59 item 3): for
// each row of rows.ts, an app made for the test with that row's React Native, react-native-webview,
// react-native-safe-area-context (and Expo SDK), the packed tarball installed beside them, the example's
// screen (examples/react-native/App.tsx) inside the `SafeAreaProvider` an app has at its root, bundled by
// Metro for iOS and Android as a release build is, with that version's default Metro config. Metro before
// 0.82 ignores `exports`: hub-embed/react-native then resolves through its subpath folder
// (scripts/subpath-folders.mjs). React Native refuses a second registration of a native view name ("Tried to
// register two views with the same name"): each must be in the bundle once, and hub-embed/react-native must
// be the package's dist/. The README's React Native snippet and the screen type-check under the template's
// tsconfig; the oldest row also under moduleResolution node10.
//
// The rows bundle one after another (each both platforms at once) under Node 24 (scripts/node-release.mjs):
// React Native 0.88 and Expo SDK 58 need Node 22 or later. The next row's app installs while a row bundles:
// an install mostly waits on the registry and the disk, Metro on the CPU. Each app stays installed in
// node_modules/.cache/hub-embed-rn-matrix/<app> between runs (installed again only when its versions change),
// the tarball is installed on every run. HUB_RN_ROWS=0,3 runs the rows of those indexes only.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeReleaseBin } from '../../scripts/node-release.mjs';
import { PEER_FLOORS } from '../../src/core/peer-floors.js';
import { INSTALL_FLAGS, pkg, ROOT, tarball } from '../shipped/apps.js';
import { ROWS, type MatrixApp, type MatrixRow } from './rows.js';
import { startHarness } from '../e2e/harness.js';
import { driveWeb, prepareWeb, webBuildEnv, webCode, WEB_FILES, WEB_OUT } from './expo-web.js';

const APPS = join(ROOT, 'node_modules/.cache/hub-embed-rn-matrix');
const PLATFORMS = ['ios', 'android'] as const;
/** The native views the app's packages register: each exactly once in a bundle. */
const NATIVE_VIEWS = ['RNCSafeAreaProvider', 'RNCSafeAreaView', 'RNCWebView'];
/** The packages whose modules must come from one folder each: the app's own copy. */
const SINGLE_COPY = ['react', 'react-native', 'react-native-webview', 'react-native-safe-area-context'];

const ENV = {
  ...process.env,
  // Node 24 first: what the rows' tools (npm, Metro, the Expo CLI) run on, whichever Node runs this file.
  PATH: `${nodeReleaseBin(24)}:${process.env.PATH}`,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  // Expo's CLI asks its servers nothing (no version check, no telemetry); CI mode makes it ask no questions.
  EXPO_OFFLINE: '1',
  EXPO_NO_TELEMETRY: '1',
  CI: '1',
};

interface Result {
  status: number | null;
  out: string;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...ENV, ...env } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', (error) => resolve({ status: null, out: `${cmd}: ${error.message}\n${out}` }));
    child.on('close', (status) => resolve({ status, out }));
  });
}

/** The app's entry: the example's screen inside the SafeAreaProvider an app has at its root. */
const INDEX = `import { AppRegistry } from 'react-native';
import { SafeAreaProvider } from 'react-native-safe-area-context';
import TablesScreen from './App';

function Root() {
  return (
    <SafeAreaProvider>
      <TablesScreen
        widgetPage="https://app.example/hub-embed.html"
        formOrigin="https://forms.example"
        tokenRoute="https://app.example/api/hub-token"
        sessionToken={() => 'session'}
      />
    </SafeAreaProvider>
  );
}

AppRegistry.registerComponent('main', () => Root);
`;

/** Each bundler's default Metro config, as its template writes it. */
const METRO_CONFIG = {
  'react-native': `const { getDefaultConfig, mergeConfig } = require('@react-native/metro-config');
module.exports = mergeConfig(getDefaultConfig(__dirname), {});
`,
  expo: `const { getDefaultConfig } = require('expo/metro-config');
module.exports = getDefaultConfig(__dirname);
`,
};
/** The React Native template's Babel config; Expo's templates have none (expo/metro-config brings its preset). */
const BABEL_CONFIG = "module.exports = { presets: ['module:@react-native/babel-preset'] };\n";

/** The README's React Native snippet as written there, with the one name it leaves to the app (`api`). */
function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```tsx\n([^`]*from 'hub-embed\/react-native'[^`]*)```/.exec(readme)?.[1];
  assert.ok(block, "README.md has a tsx block importing 'hub-embed/react-native'");
  return `${block}
declare const api: {
  hubToken(request: { reason: string; previous?: string }): Promise<{ access_token: string; expires_in: number }>;
};
`;
}

/** Installs the app's dependencies unless the ones installed are these; then the tarball. */
async function installApp(app: MatrixApp): Promise<void> {
  const dir = join(APPS, app.name);
  const key = createHash('sha256').update(JSON.stringify(app.dependencies)).digest('hex');
  const keyFile = join(dir, '.dependencies-key');
  if (!existsSync(keyFile) || readFileSync(keyFile, 'utf8') !== key) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `hub-embed-${app.name}`, private: true }));
    const specs = Object.entries(app.dependencies).map(([name, version]) => `${name}@${version}`);
    const install = await run('npm', ['install', ...INSTALL_FLAGS, ...specs], dir);
    assert.equal(install.status, 0, `installing ${app.name}'s dependencies failed:\n${install.out}`);
    writeFileSync(keyFile, key);
  }
  // --no-save: the app's package.json keeps naming only its own dependencies, so the key above holds.
  // Removed first: npm may take a copy of the same name and version as current and leave it as it is.
  rmSync(join(dir, 'node_modules', pkg.name), { recursive: true, force: true });
  const install = await run('npm', ['install', '--no-save', ...INSTALL_FLAGS, tarball().tarball], dir);
  assert.equal(install.status, 0, `installing the tarball failed:\n${install.out}`);
  for (const file of ['App.tsx', 'hub-token.ts'])
    copyFileSync(join(ROOT, 'examples/react-native', file), join(dir, file));
  for (const file of WEB_FILES) copyFileSync(join(ROOT, 'examples/react-native', file), join(dir, file));
  writeFileSync(join(dir, 'index.js'), INDEX);
  writeFileSync(join(dir, 'readme-snippet.tsx'), readmeSnippet());
}

/** Each app's install, started once per run, by its row or while the row before it bundles. */
const installs = new Map<string, Promise<void>>();
function installed(app: MatrixApp): Promise<void> {
  let install = installs.get(app.name);
  if (!install) {
    install = installApp(app);
    // Its row awaits it and reports a failure; until then, a failure is no unhandled rejection.
    install.catch(() => {});
    installs.set(app.name, install);
  }
  return install;
}

/** The app installed for `row`, and set up to bundle as the row does (two rows may share an app). */
async function prepareApp(app: MatrixApp, row: MatrixRow): Promise<void> {
  const dir = join(APPS, app.name);
  await installed(app);
  const appJson = row.bundler === 'expo' ? { expo: { name: 'main', slug: 'main' } } : { name: 'main' };
  writeFileSync(join(dir, 'app.json'), JSON.stringify(appJson));
  // What this row bundles with: its bundler's default config (two rows may share the app).
  writeFileSync(join(dir, 'metro.config.js'), METRO_CONFIG[row.bundler]);
  if (row.bundler === 'expo') rmSync(join(dir, 'babel.config.js'), { force: true });
  else writeFileSync(join(dir, 'babel.config.js'), BABEL_CONFIG);
}

const version = (dir: string, name: string) =>
  (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The bundle's modules that name the native view `name` as a string literal: where it is registered
 * (`NativeComponentRegistry.get('RNCWebView', …)` with its view config, or a `codegenNativeComponent` /
 * `requireNativeComponent` call, whose name is minified away but whose literal stays). A native module of
 * the same name (`TurboModuleRegistry.getEnforcing('RNCWebView')`) is another registry and not counted,
 * nor is a JSON module (`m.exports={…}`): react-native-webview's package.json, which hub-embed/react-native
 * reads for the version floor, names its views in `codegenConfig` and registers nothing.
 */
const JSON_MODULE = /^__d\(function\([\w,]*\)\{\w+\.exports=\{/;
const registeringModules = (code: string, name: string) =>
  code
    .split(/(?=__d\(function)/)
    .filter((module) => !JSON_MODULE.test(module))
    .filter((module) => new RegExp(`(?<!getEnforcing\\()(["'\`])${name}\\1`).test(module)).length;

type SourceMap = { sources: string[] } | { sections: Array<{ map: SourceMap }> };
/** The files a source map names; Metro 0.83 and later write an index map, of sections. */
const sourcesOf = (map: SourceMap): string[] =>
  'sections' in map ? map.sections.flatMap((section) => sourcesOf(section.map)) : map.sources;

const wanted = process.env.HUB_RN_ROWS?.split(',').map(Number);
const times: string[] = [];
after(() => console.log(`# row times (install, both bundles, type checks):\n${times.join('\n')}`));

it('the oldest row holds the floors that src/core/peer-floors.ts promises', () => {
  const floors = ROWS[0]!.app.dependencies;
  assert.equal(floors['react-native']!.replace(/\.\d+$/, '.0'), PEER_FLOORS['react-native']);
  assert.equal(floors['react-native-webview'], PEER_FLOORS['react-native-webview']);
  assert.equal(floors['react-native-safe-area-context'], PEER_FLOORS['react-native-safe-area-context']);
  assert.equal(floors.react!.split('.')[0], PEER_FLOORS.react.split('.')[0]);
});

ROWS.forEach((row, index) => {
  const dir = join(APPS, row.app.name);
  describe(row.name, { skip: wanted && !wanted.includes(index) ? 'not in HUB_RN_ROWS' : false }, () => {
    const bundles: Record<string, { code: string; sources: string[] }> = {};
    let started = 0;
    let installedAt = 0;
    let bundledAt = 0;

    before(
      async () => {
        started = Date.now();
        await prepareApp(row.app, row);
        installedAt = Date.now();
        const next = ROWS.slice(index + 1).find((later) => !wanted || wanted.includes(ROWS.indexOf(later)));
        if (next) void installed(next.app);
        // Both platforms at once: each Metro run waits on its own transforms much of the time.
        await Promise.all(
          PLATFORMS.map(async (platform) => {
            const out = join(dir, `out-${platform}.js`);
            const map = `${out}.map`;
            rmSync(out, { force: true });
            const args = ['--platform', platform, '--dev', 'false', '--entry-file', 'index.js'].concat(
              ['--bundle-output', out, '--sourcemap-output', map],
              ['--max-workers', '1'],
            );
            const result =
              row.bundler === 'expo'
                ? await run(join(dir, 'node_modules/.bin/expo'), ['export:embed', ...args], dir)
                : await run(join(dir, 'node_modules/.bin/react-native'), ['bundle', ...args], dir);
            assert.equal(result.status, 0, `Metro (${platform}) failed:\n${result.out}`);
            bundles[platform] = {
              code: readFileSync(out, 'utf8'),
              // Expo names them from the app's folder (`/node_modules/react/index.js`), Metro by their paths.
              sources: sourcesOf(JSON.parse(readFileSync(map, 'utf8')) as SourceMap).map((source) =>
                source.startsWith(`${dir}/`) ? source : join(dir, source),
              ),
            };
          }),
        );
        bundledAt = Date.now();
      },
      { timeout: 15 * 60_000 },
    );
    after(() => {
      const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
      if (bundledAt)
        times.push(
          `#   ${row.name}: ${seconds(installedAt - started)}, ${seconds(bundledAt - installedAt)}, ` +
            `${seconds(Date.now() - bundledAt)}`,
        );
    });

    it(`runs the versions it names, with Metro ${row.metro}`, () => {
      for (const [name, expected] of Object.entries(row.app.dependencies))
        assert.equal(version(dir, name), expected, name);
      assert.equal(version(dir, 'metro').split('.').slice(0, 2).join('.'), row.metro);
    });

    for (const platform of PLATFORMS) {
      it(`registers each native view once in the ${platform} bundle: no package carries its own copy of another`, () => {
        const { code } = bundles[platform]!;
        for (const view of NATIVE_VIEWS)
          assert.equal(registeringModules(code, view), 1, `modules registering ${view} in the ${platform} bundle`);
        // And no view of any package twice: every static view config names its class once.
        const names = [...code.matchAll(/uiViewClassName:\s*"(\w+)"/g)].map((match) => match[1]!);
        assert.deepEqual(
          names.filter((name, i) => names.indexOf(name) !== i),
          [],
          'view names registered twice',
        );
      });

      it(`resolves hub-embed/react-native to the package's dist/ in the ${platform} bundle`, () => {
        const { sources } = bundles[platform]!;
        const ours = sources.filter((source) => source.includes(`/node_modules/${pkg.name}/`));
        assert.ok(
          ours.some((source) => source.endsWith(`/node_modules/${pkg.name}/dist/react-native.js`)),
          `dist/react-native.js is in the bundle: ${ours.join(', ')}`,
        );
        assert.deepEqual(
          ours.filter((source) => !source.includes(`/node_modules/${pkg.name}/dist/`)),
          [],
          'every module of the package comes from its dist/',
        );
      });

      it(`takes react, react-native and their native-view packages from the app's one copy each (${platform})`, () => {
        const { sources } = bundles[platform]!;
        for (const name of SINGLE_COPY) {
          const folders = new Set(
            sources
              .filter((source) => source.includes(`/node_modules/${name}/`))
              .map((source) => source.slice(0, source.lastIndexOf(`/node_modules/${name}/`))),
          );
          assert.deepEqual([...folders], [dir], `${name} is the app's own (node_modules/${name})`);
        }
      });
    }

    it(`type-checks the README snippet and the example screen under ${row.tsconfig}`, async () => {
      const configs: Record<string, object> = {
        'tsconfig.json': {
          extends: row.tsconfig,
          // The template's "jest" types are for its own tests, which this app has none of.
          compilerOptions: row.bundler === 'react-native' ? { types: ['react-native'] } : {},
          // A row with a web target: the web screens too, the native screen's props with `web` under one type
          // (and Expo's `process.env` for its EXPO_PUBLIC_ variables), and the DOM component's element.
          include: ['App.tsx', 'hub-token.ts', 'readme-snippet.tsx', ...(row.web ? WEB_FILES : [])],
        },
      };
      // The oldest row: also TypeScript's node10 resolution, which ignores exports as old Metro does.
      if (index === 0)
        configs['tsconfig.node10.json'] = {
          extends: './tsconfig.json',
          compilerOptions: {
            module: 'commonjs',
            moduleResolution: 'node10',
            customConditions: null,
            resolvePackageJsonImports: null,
          },
        };
      for (const [file, config] of Object.entries(configs)) {
        writeFileSync(join(dir, file), JSON.stringify(config, null, 2));
        const result = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', file], dir);
        assert.equal(result.status, 0, `tsc -p ${file}:\n${result.out}`);
      }
    });

    if (row.web)
      it('exports for the web with the element itself, in <HubEmbedView> and in an Expo DOM component: the cards appear, a card opens the form, the app hears it', async (t) => {
        const started = Date.now();
        prepareWeb(dir);
        // The service runs first: its addresses go into the build, as an app's EXPO_PUBLIC_ variables do.
        const h = await startHarness();
        t.after(() => h.close());
        const result = await run(
          join(dir, 'node_modules/.bin/expo'),
          ['export', '--platform', 'web', '--output-dir', WEB_OUT, '--max-workers', '1'],
          dir,
          webBuildEnv(h),
        );
        assert.equal(result.status, 0, `expo export --platform web failed:\n${result.out}`);
        const code = webCode(dir);
        // The `browser` condition: the web entry, with no WebView in it.
        assert.ok(code.includes('renders <hub-embed> in your page'), "the web entry's code is in the web bundle");
        assert.ok(!code.includes('RNCWebView'), 'no react-native-webview in the web bundle');
        assert.ok(code.includes(h.baseUrl), "the service's address is the build's");
        const exported = Date.now();
        const web = await driveWeb(dir, h);
        assert.ok(web.cards > 0, 'cards');
        assert.match(web.heard, /ready:(en|zh-CN)/);
        assert.match(web.heard, /selected:\S+ opened:\S+:page/);
        assert.equal(web.formFrames, 1, "the form opened in the element's dialog");
        assert.deepEqual(web.errors, [], 'no script error in the page');
        // An Expo DOM component is the page itself on the web: the element in it, its token and events
        // through the screen's native actions.
        const dom = await driveWeb(dir, h, 'dom');
        assert.ok(dom.cards > 0, 'cards in the DOM component');
        assert.match(dom.heard, /ready:\d+ opened:\S+/);
        assert.equal(dom.formFrames, 1, "the DOM component's form opened in the element's dialog");
        assert.deepEqual(dom.errors, [], 'no script error in the DOM component’s page');
        times.push(
          `#   ${row.name}, web: ${Math.round((exported - started) / 1000)} s export, ` +
            `${Math.round((Date.now() - exported) / 1000)} s in Chromium`,
        );
      });
  });
});

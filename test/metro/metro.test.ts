// A real React Native app's bundle (`npm run test:metro`, issue 43 item 4): the packed tarball installed
// into an app made for the test, with its own react-native-webview and react-native-safe-area-context and
// `SafeAreaProvider` at the root (as React Navigation and Expo apps have), the example's screen
// (examples/react-native/App.tsx) as the app, bundled by Metro for iOS and Android as a release build is.
// React Native refuses a second registration of a native view name ("Tried to register two views with the
// same name"): each must be in the bundle once, and hub-embed/react-native must be the package's dist/.
// The app's dependencies stay installed in node_modules/.cache/hub-embed-metro-app between runs (they are
// installed again only when their versions change); the tarball is installed on every run.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { INSTALL_FLAGS, installedVersion, pkg, ROOT, run, runAsync, tarball } from '../shipped/apps.js';

const APP = join(ROOT, 'node_modules/.cache/hub-embed-metro-app');
const PLATFORMS = ['ios', 'android'] as const;
/** The native views the app's packages register: each exactly once in a bundle. */
const NATIVE_VIEWS = ['RNCSafeAreaProvider', 'RNCSafeAreaView', 'RNCWebView'];
/** The packages whose modules must come from one folder each: the app's own copy. */
const SINGLE_COPY = ['react', 'react-native', 'react-native-webview', 'react-native-safe-area-context'];

const rnVersion = installedVersion('react-native');
/** What the app installs besides the tarball: the versions this repository's harness tests run with. */
const DEPENDENCIES: Record<string, string> = {
  react: installedVersion('react'),
  'react-native': rnVersion,
  'react-native-webview': installedVersion('react-native-webview'),
  'react-native-safe-area-context': installedVersion('react-native-safe-area-context'),
  '@react-native/metro-config': rnVersion,
  '@react-native/babel-preset': rnVersion,
  '@react-native-community/cli': '20',
};

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

AppRegistry.registerComponent('HubEmbedMetro', () => Root);
`;
/** Metro's transform cache beside the app, so a later run transforms only what changed. */
const METRO_CONFIG = `const path = require('node:path');
const { getDefaultConfig, mergeConfig } = require('@react-native/metro-config');
const { FileStore } = require('metro-cache');
module.exports = mergeConfig(getDefaultConfig(__dirname), {
  cacheStores: [new FileStore({ root: path.join(__dirname, '.metro-cache') })],
});
`;

const bundles: Record<string, { code: string; sources: string[] }> = {};

/** Installs the app's dependencies unless the ones installed are these; then the tarball, every run. */
function prepareApp(): void {
  const key = createHash('sha256').update(JSON.stringify(DEPENDENCIES)).digest('hex');
  const keyFile = join(APP, '.dependencies-key');
  if (!existsSync(keyFile) || readFileSync(keyFile, 'utf8') !== key) {
    rmSync(APP, { recursive: true, force: true });
    mkdirSync(APP, { recursive: true });
    writeFileSync(join(APP, 'package.json'), JSON.stringify({ name: 'hub-embed-metro-app', private: true }));
    const specs = Object.entries(DEPENDENCIES).map(([name, version]) => `${name}@${version}`);
    const install = run('npm', ['install', ...INSTALL_FLAGS, ...specs], APP);
    assert.equal(install.status, 0, `installing the app's dependencies failed:\n${install.out}`);
    writeFileSync(keyFile, key);
  }
  // --no-save: the app's package.json keeps naming only its own dependencies, so the key above holds.
  const { tarball: file } = tarball();
  // Removed first: npm may take a copy of the same name and version as current and leave it as it is.
  rmSync(join(APP, 'node_modules', pkg.name), { recursive: true, force: true });
  const install = run('npm', ['install', '--no-save', ...INSTALL_FLAGS, file], APP);
  assert.equal(install.status, 0, `installing the tarball failed:\n${install.out}`);
  const shipped = JSON.parse(readFileSync(join(APP, 'node_modules', pkg.name, 'package.json'), 'utf8')) as {
    version: string;
  };
  assert.equal(shipped.version, pkg.version);
  for (const file of ['App.tsx', 'hub-token.ts'])
    copyFileSync(join(ROOT, 'examples/react-native', file), join(APP, file));
  writeFileSync(join(APP, 'index.js'), INDEX);
  writeFileSync(join(APP, 'metro.config.js'), METRO_CONFIG);
  writeFileSync(join(APP, 'babel.config.js'), "module.exports = { presets: ['module:@react-native/babel-preset'] };\n");
  writeFileSync(join(APP, 'app.json'), JSON.stringify({ name: 'HubEmbedMetro', displayName: 'HubEmbedMetro' }));
}

before(
  async () => {
    prepareApp();
    // Both platforms at once: each Metro run waits on its own transforms much of the time.
    await Promise.all(
      PLATFORMS.map(async (platform) => {
        const out = join(APP, `out-${platform}.js`);
        const map = `${out}.map`;
        rmSync(out, { force: true });
        const result = await runAsync(
          join(APP, 'node_modules/.bin/react-native'),
          ['bundle', '--platform', platform, '--dev', 'false', '--entry-file', 'index.js'].concat([
            '--bundle-output',
            out,
            '--sourcemap-output',
            map,
          ]),
          APP,
        );
        assert.equal(result.status, 0, `Metro (${platform}) failed:\n${result.out}`);
        bundles[platform] = {
          code: readFileSync(out, 'utf8'),
          sources: (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources,
        };
      }),
    );
  },
  { timeout: 10 * 60_000 },
);

/**
 * The bundle's modules that name the native view `name` as a string literal: where it is registered
 * (`NativeComponentRegistry.get('RNCWebView', …)` with its view config, or a `codegenNativeComponent` /
 * `requireNativeComponent` call, whose name is minified away but whose literal stays). A native module of
 * the same name (`TurboModuleRegistry.getEnforcing('RNCWebView')`) is another registry and not counted.
 */
const registeringModules = (code: string, name: string) =>
  code.split(/(?=__d\(function)/).filter((module) => new RegExp(`(?<!getEnforcing\\()(["'\`])${name}\\1`).test(module))
    .length;

for (const platform of PLATFORMS) {
  describe(`the app's Metro bundle (${platform}, release)`, () => {
    it('registers each native view once: no package carries its own copy of another', () => {
      const { code } = bundles[platform]!;
      for (const view of NATIVE_VIEWS)
        assert.equal(registeringModules(code, view), 1, `modules registering ${view} in the ${platform} bundle`);
      // And no view of any package twice: every static view config names its class once.
      const names = [...code.matchAll(/uiViewClassName:\s*"(\w+)"/g)].map((match) => match[1]!);
      assert.deepEqual(
        names.filter((name, index) => names.indexOf(name) !== index),
        [],
        'view names registered twice',
      );
    });

    it("resolves hub-embed/react-native to the package's dist/", () => {
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

    it("takes react, react-native and their native-view packages from the app's one copy each", () => {
      const { sources } = bundles[platform]!;
      for (const name of SINGLE_COPY) {
        const folders = new Set(
          sources
            .filter((source) => source.includes(`/node_modules/${name}/`))
            .map((source) => source.slice(0, source.lastIndexOf(`/node_modules/${name}/`))),
        );
        assert.deepEqual([...folders], [APP], `${name} is the app's own (node_modules/${name})`);
      }
    });
  });
}

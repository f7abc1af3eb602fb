// A Capacitor app made from the page of docs/webview-capacitor.md: its files in test/hybrid/capacitor-app/,
// the page's script taken from the docs' "The page" block, the packed tarball and Capacitor installed as an
// app's developer installs them, built by Vite, and `npx cap add` and `npx cap sync` run for Android and iOS.
// Neither Gradle nor Xcode is needed for that: the synced native projects must hold the built page and the
// widget's bundle, and the origins the native runtimes serve them from must be the ones the docs name.
// Capacitor's CLI needs Node 22 or later: it runs on the Node 24 of scripts/node-release.mjs, whatever node
// runs this file. `npm run ci -- hybrid` packs first; with node:test.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeReleaseBin } from '../../scripts/node-release.mjs';
import {
  assertRan,
  INSTALL_FLAGS,
  ROOT,
  runAsync,
  installedVersion,
  tarball,
  tempApp,
  type Result,
} from '../shipped/apps.js';

/** The Capacitor packages the app installs, and the Vite that builds its web part. */
export const CAPACITOR_APP = [
  '@capacitor/cli@8.5.2',
  '@capacitor/core@8.5.2',
  '@capacitor/android@8.5.2',
  '@capacitor/ios@8.5.2',
  `vite@${installedVersion('vite')}`,
];

const DOC = readFileSync(join(ROOT, 'docs/webview-capacitor.md'), 'utf8');

/** The first ```ts block under the docs' "## The page": the widget page's script, as the docs give it. */
function docPage(): string {
  const section = DOC.slice(DOC.indexOf('\n## The page'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'docs/webview-capacitor.md has no ts block under "## The page"');
  return block;
}

/** Runs a command in `cwd` to its end, with `bin` first on PATH; stdout and stderr together. */
function runOn(bin: string, cwd: string, cmd: string, args: string[]): Promise<Result> {
  const env = {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    npm_config_update_notifier: 'false',
  };
  return runAsync(cmd, args, cwd, env);
}

/** The built page and the one script it loads, from a web folder (dist/ or a native project's public/). */
function page(dir: string): { html: string; script: string } {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const src = /<script type="module" crossorigin src="\/([^"]+)"/.exec(html)?.[1];
  assert.ok(src, `${dir}/index.html loads no module script:\n${html}`);
  return { html, script: readFileSync(join(dir, src), 'utf8') };
}

/** The value of a Java field or Swift constant `name = "…"` in a native source of Capacitor. */
function nativeDefault(file: string, pattern: RegExp): string {
  const value = pattern.exec(readFileSync(file, 'utf8'))?.[1];
  assert.ok(value, `${file} no longer holds ${pattern}`);
  return value;
}

describe('a Capacitor app with the widget page, from the tarball', () => {
  const app = tempApp('capacitor');
  const node24 = nodeReleaseBin(24);
  const inApp = (cmd: string, args: string[]) => runOn(node24, app.dir, cmd, args);
  let dist: ReturnType<typeof page>;

  before(async () => {
    cpSync(join(ROOT, 'test/hybrid/capacitor-app'), app.dir, { recursive: true });
    writeFileSync(join(app.dir, 'src', 'page.ts'), docPage());
    assertRan(await inApp('npm', ['install', ...INSTALL_FLAGS, tarball().tarball, ...CAPACITOR_APP]), 'npm install');
    assertRan(await inApp('npx', ['vite', 'build']), 'vite build');
    dist = page(join(app.dir, 'dist'));
    assertRan(await inApp('npx', ['cap', 'add', 'android']), 'npx cap add android');
    assertRan(await inApp('npx', ['cap', 'add', 'ios']), 'npx cap add ios');
    assertRan(await inApp('npx', ['cap', 'sync']), 'npx cap sync');
  });
  after(() => app.remove());

  it('builds the page of the docs with the widget and its bearer-header token provider', () => {
    assert.match(dist.html, /<div id="widget"><\/div>/);
    // The elements hub-embed/define registers, from the tarball, and the docs' page with its provider.
    for (const text of [
      '`hub-embed`',
      '`hub-table-grid`',
      '`hub-table-card`',
      '`hub-tag-filter`',
      'document.createElement(`hub-embed`)',
      'https://api.example.com/api/hub-token',
      'https://hub.example.com/api/v1/apihub',
      'https://forms.example.com',
      'Bearer ',
    ])
      assert.ok(dist.script.includes(text), `the bundle lacks ${JSON.stringify(text)}`);
  });

  for (const [platform, publicDir, configFile] of [
    ['android', 'android/app/src/main/assets/public', 'android/app/src/main/assets/capacitor.config.json'],
    ['ios', 'ios/App/App/public', 'ios/App/App/capacitor.config.json'],
  ] as const)
    it(`cap sync copies the page and the widget's bundle into the ${platform} project`, () => {
      const synced = page(join(app.dir, publicDir));
      assert.equal(synced.html, dist.html);
      assert.equal(synced.script, dist.script);
      // Every chunk Vite split the widget into (its form's among them), byte for byte.
      const built = readdirSync(join(app.dir, 'dist/assets')).sort();
      assert.deepEqual(readdirSync(join(app.dir, publicDir, 'assets')).sort(), built);
      for (const file of built)
        assert.ok(
          readFileSync(join(app.dir, publicDir, 'assets', file)).equals(
            readFileSync(join(app.dir, 'dist/assets', file)),
          ),
          `${publicDir}/assets/${file} differs from dist/`,
        );
      assert.ok(existsSync(join(app.dir, configFile)), `${configFile} was not written`);
    });

  it('the native runtimes serve the page from the origins the docs name', () => {
    const modules = join(app.dir, 'node_modules/@capacitor');
    const javaConfig = join(modules, 'android/capacitor/src/main/java/com/getcapacitor/CapConfig.java');
    const androidHttps = nativeDefault(
      join(modules, 'android/capacitor/src/main/java/com/getcapacitor/Bridge.java'),
      /CAPACITOR_HTTPS_SCHEME = "([^"]+)"/,
    );
    assert.match(readFileSync(javaConfig, 'utf8'), /private String androidScheme = CAPACITOR_HTTPS_SCHEME;/);
    const androidHost = nativeDefault(javaConfig, /private String hostname = "([^"]+)"/);
    const iosDefaults = join(modules, 'ios/Capacitor/Capacitor/CAPInstanceDescriptor.swift');
    const iosScheme = nativeDefault(iosDefaults, /static let scheme = "([^"]+)"/);
    const iosHost = nativeDefault(iosDefaults, /static let hostname = "([^"]+)"/);

    const origin = (configFile: string, schemeKey: 'androidScheme' | 'iosScheme', scheme: string, host: string) => {
      const { server = {} } = JSON.parse(readFileSync(join(app.dir, configFile), 'utf8')) as {
        server?: Record<string, string>;
      };
      return `${server[schemeKey] ?? scheme}://${server.hostname ?? host}`;
    };
    const android = origin(
      'android/app/src/main/assets/capacitor.config.json',
      'androidScheme',
      androidHttps,
      androidHost,
    );
    const ios = origin('ios/App/App/capacitor.config.json', 'iosScheme', iosScheme, iosHost);
    assert.equal(android, 'https://localhost');
    assert.equal(ios, 'capacitor://localhost');
    // The docs' table of origins and the token route's allowedOrigins name exactly these.
    assert.match(DOC, new RegExp(`\\| Capacitor, iOS \\| \`${ios}\``));
    assert.match(DOC, new RegExp(`\\| Capacitor, Android \\| \`${android}\``));
    assert.ok(DOC.includes(`allowedOrigins: ['${ios}', '${android}']`), 'the token route does not admit both');
  });
});

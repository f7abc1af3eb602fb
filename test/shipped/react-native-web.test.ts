// hub-embed/react-native on the web as the packed tarball resolves (issue 82 item 5): the `browser`
// condition, and the `browser` field of its folder for resolvers that ignore `exports`, lead to the web
// entry, which carries no WebView; every other resolution keeps the native one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { importsOf } from '../../scripts/dist-imports.mjs';
import { run, tarball } from './apps.js';

const scratch = mkdtempSync(join(tmpdir(), 'hub-embed-rn-web-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The tarball unpacked as node_modules/hub-embed of an empty app. */
function installed(): string {
  const modules = join(scratch, 'node_modules');
  const own = join(modules, 'hub-embed');
  mkdirSync(own, { recursive: true });
  const untar = run('tar', ['-xzf', tarball().tarball, '-C', own, '--strip-components=1'], scratch);
  assert.equal(untar.status, 0, untar.out);
  return own;
}

/** Where Node resolves hub-embed/react-native from the app, under `conditions`. */
function resolved(conditions: string[]): string {
  const result = run(
    process.execPath,
    [
      ...conditions.map((condition) => `--conditions=${condition}`),
      '--input-type=module',
      '-e',
      "console.log(import.meta.resolve('hub-embed/react-native'))",
    ],
    scratch,
  );
  assert.equal(result.status, 0, result.out);
  return new URL(result.out.trim()).pathname;
}

describe('hub-embed/react-native on the web, as packed', () => {
  const own = installed();

  it('the browser condition resolves the web entry, and no condition the native one', () => {
    assert.equal(resolved(['browser']), join(own, 'dist/react-native.web.js'));
    assert.equal(resolved([]), join(own, 'dist/react-native.js'));
  });

  it("the subpath folder's fields: react-native before browser for React Native's resolvers, browser for the web's", () => {
    const folder = JSON.parse(readFileSync(join(own, 'react-native/package.json'), 'utf8')) as Record<string, string>;
    assert.equal(join(own, 'react-native', folder['react-native']!), join(own, 'dist/react-native.js'));
    assert.equal(join(own, 'react-native', folder.browser!), join(own, 'dist/react-native.web.js'));
    assert.equal(folder.main, folder['react-native']);
  });

  it('the web entry registers the element and imports no WebView package', () => {
    const imports = importsOf(readFileSync(join(own, 'dist/react-native.web.js'), 'utf8'));
    assert.ok(imports.includes('./define.js'), imports.join(', '));
    for (const peer of ['react-native-webview', 'react-native-safe-area-context'])
      assert.ok(!imports.includes(peer), `the web entry imports ${peer}`);
  });
});

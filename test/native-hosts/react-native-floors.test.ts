// Issue 61 item 2: react-native-webview's declared minimum (13.8.0) is checked when hub-embed/react-native
// loads, as React's and React Native's are (src/core/peer-floors.ts). The entry runs in a Node process of
// its own with the harness's stand-ins, reporting the react-native-webview version each case names.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { PEER_FLOORS } from '../../src/core/peer-floors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOAD = `
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('./test/native-hosts/react-native/aliases.mjs', pathToFileURL('./'));
await import('./src/react-native/index.ts');
console.log('loaded');
`;

/** Loads the entry with react-native-webview reporting `version`: what it printed, or the error. */
function loadWith(version: string) {
  const child = spawnSync(
    process.execPath,
    ['--import', './scripts/ts-register.mjs', '--input-type=module', '--eval', LOAD],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, HUB_RN_WEBVIEW_PACKAGE_VERSION: version } },
  );
  return { status: child.status, out: child.stdout, err: child.stderr };
}

describe('the react-native-webview floor is checked when the binding loads, like the other peers’ floors', () => {
  it('react-native-webview older than 13.8.0 is refused, naming the binding and both versions', () => {
    assert.equal(PEER_FLOORS['react-native-webview'], '13.8.0');
    const old = loadWith('13.7.2');
    assert.notEqual(old.status, 0);
    assert.match(
      old.err,
      /hub-embed\/react-native needs react-native-webview 13\.8\.0 or later; this app has react-native-webview 13\.7\.2\./,
    );
  });

  it('the floor itself and later versions load', () => {
    for (const version of ['13.8.0', '16.0.0']) {
      const run = loadWith(version);
      assert.equal(run.status, 0, run.err);
      assert.match(run.out, /loaded/);
    }
  });
});

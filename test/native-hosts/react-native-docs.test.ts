// docs/react-native.md shows only code that runs: each block marked `<!-- from: file#region -->` is that
// region of a file in examples/react-native, which test/native-hosts/react-native-example.test.ts,
// react-native-day-one.test.ts and test/metro's Expo web export (the DOM component) run. The same markers and region rule as README.md (scripts/doc-regions.mjs).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { region } from '../../scripts/doc-regions.mjs';

const ROOT = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/react-native.md', ROOT), 'utf8');
const BLOCK = /```(\w+)\n([\s\S]*?)\n```/g;

describe('docs/react-native.md', () => {
  it('every code block but the install line comes from a file a test runs, and equals it', () => {
    const blocks = [...doc.matchAll(BLOCK)];
    let quoted = 0;
    for (const block of blocks) {
      const before = doc.slice(0, block.index).trimEnd();
      const marker = /<!-- from: (examples\/react-native\/[\w.-]+)#([\w-]+) -->$/.exec(before);
      if (!marker) {
        assert.equal(block[1], 'sh', `an unmarked ${block[1]} block: ${block[2]!.slice(0, 60)}`);
        continue;
      }
      const [, file, name] = marker;
      assert.equal(block[2], region(readFileSync(new URL(file!, ROOT), 'utf8'), name, file), `${file}#${name}`);
      quoted++;
    }
    // The five of the native view, and the Expo DOM component and its screen (run by test/metro's web export).
    assert.equal(quoted, 7);
  });
});

describe('README.md, Mobile', () => {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
  const mobile = readme.slice(readme.indexOf('## Mobile'), readme.indexOf('\n## ', readme.indexOf('## Mobile') + 1));
  const snippet = /```tsx\n([\s\S]*?)\n```/.exec(mobile)?.[1] ?? '';

  it('the snippet passes allowedOrigins with the form site, so forms open in the native Modal as it says', () => {
    assert.match(snippet, /<HubEmbedView/);
    // The default openForm fills the screen only for a form of an allowed origin (src/react-native/form-checks.ts).
    assert.match(snippet, /allowedOrigins=\{\['https:\/\/[^'\]]+'\]\}/);
    assert.match(snippet, /native Modal/);
    assert.match(snippet, /getToken=/);
  });

  it('its install line names every native part the component imports, as docs/react-native.md and the example do', () => {
    // The native modules src/react-native imports (react and react-native are the app's own).
    const dir = new URL('src/react-native/', ROOT);
    const natives = new Set(
      readdirSync(dir).flatMap((file) =>
        [...readFileSync(new URL(file, dir), 'utf8').matchAll(/from '(react-native-[\w-]+)/g)].map((m) => m[1]!),
      ),
    );
    assert.deepEqual([...natives].sort(), ['react-native-safe-area-context', 'react-native-webview']);
    for (const [name, text] of [
      ['README.md', mobile],
      ['docs/react-native.md', doc],
      ['examples/react-native/README.md', readFileSync(new URL('examples/react-native/README.md', ROOT), 'utf8')],
    ]) {
      const install = /^npm install hub-embed .*$/m.exec(text!)?.[0] ?? '';
      assert.deepEqual(
        [...natives].filter((name) => !install.split(' ').includes(name)),
        [],
        `${name}: ${install || 'no install line'}`,
      );
    }
  });
});

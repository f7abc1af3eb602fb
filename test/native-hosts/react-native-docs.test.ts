// docs/react-native.md shows only code that runs: each block marked `<!-- from: file#region -->` is that
// region of a file in examples/react-native, which test/native-hosts/react-native-example.test.ts and
// react-native-day-one.test.ts run. The same markers and region rule as README.md (scripts/doc-regions.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
    assert.equal(quoted, 4);
  });
});

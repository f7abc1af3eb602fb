// Prose that cannot rot (scripts/prose-check.mjs, run by the lint lane): each rule fires on what it is
// for, stays quiet on what it is not, and reads prose only, not code.
import { describe, expect, it } from 'vitest';
import { checkedFiles, enginesFloor, findingsOf } from '../../scripts/prose-check.mjs';

const FLOOR: [number, number] = [22, 13];
const found = (file: string, text: string) =>
  (findingsOf(file, text, FLOOR) as { line: number; rule: string; text: string }[]).map(
    ({ line, rule, text: said }) => `${line} ${rule}: ${said}`,
  );

describe('the prose check', () => {
  it('reads the floor from package.json engines', () => {
    expect(enginesFloor('>=22.13.0')).toEqual([22, 13]);
    expect(enginesFloor('>= 24')).toEqual([24, 0]);
    expect(() => enginesFloor('^22')).toThrow(/">=" range/);
  });

  it('node-version: a doc or a comment naming a Node older than engines fails, the floor and later pass', () => {
    expect(found('page.md', 'Runs on Node 20.\nOn Node.js 18.4 too.')).toEqual([
      '1 node-version: Node 20',
      '2 node-version: Node.js 18.4',
    ]);
    expect(found('page.md', 'Node 22.6 added the flag.')).toEqual(['1 node-version: Node 22.6']);
    expect(found('page.md', 'Node 22.13 or later; CI runs Node 22 and Node 24.')).toEqual([]);
    expect(found('code.ts', '// works on Node 20 as well\nconst x = 1;')).toEqual(['1 node-version: Node 20']);
  });

  it('count: "N tests", "N elements" and "N lanes" fail, in digits or words, with one word between', () => {
    expect(found('page.md', 'The browser project has 127 tests.')).toEqual(['1 count: 127 tests']);
    expect(found('code.ts', '/**\n * Registers the five custom elements.\n */')).toEqual([
      '2 count: five custom elements',
    ]);
    expect(found('.ci/run', '# the two lanes beside it\nlane x npm run x')).toEqual(['1 count: two lanes']);
    expect(found('page.md', 'Every element; the tests of each lane; 3 s of waiting.')).toEqual([]);
  });

  it('reads the comments of code, not its strings or statements', () => {
    expect(found('code.ts', "const label = 'Node 20 and 127 tests';\nrun('x'); // fine")).toEqual([]);
    expect(found('code.ts', "fetch('https://example.com/a'); // 2 lanes")).toEqual(['1 count: 2 lanes']);
    expect(found('.ci/run', 'echo "Node 20"\nnode x # Node 20')).toEqual(['2 node-version: Node 20']);
  });

  it('reads the docs, the comments of the code and tests, and .ci/run, but not CHANGELOG.md (history)', () => {
    const files = checkedFiles() as string[];
    for (const file of [
      'README.md',
      'CONTRIBUTING.md',
      '.ci/run',
      'docs/server.md',
      'src/index.ts',
      'test/package/engines.test.ts',
    ])
      expect(files).toContain(file);
    expect(files).not.toContain('CHANGELOG.md');
  });
});

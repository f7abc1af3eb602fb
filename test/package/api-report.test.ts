// The public surface, pinned (issue 45 item 3): the report generator that the fast gate runs.
import { describe, expect, it } from 'vitest';
import { namesInTwoEntries, packageEntries, renderReport } from '../../scripts/api-report.mjs';

const name = (n: string, home: string) => ({ name: n, kind: 'value', text: `const ${n}: string;`, home });

describe('API reports (scripts/api-report.mjs)', () => {
  it('a declaration exported by two entries is named, with both entries', () => {
    const surface = [
      { entry: 'hub-embed', names: [name('HubError', 'core/errors.d.ts:10'), name('HubEmbed', 'components/a.d.ts:1')] },
      { entry: 'hub-embed/core', names: [name('HubError', 'core/errors.d.ts:10')] },
      // Another declaration under the same name is another thing (a React component named after its element).
      { entry: 'hub-embed/react', names: [name('HubEmbed', 'react/index.d.ts:5')] },
    ];
    expect(namesInTwoEntries(surface)).toEqual([{ name: 'HubError', entries: ['hub-embed', 'hub-embed/core'] }]);
  });

  it('has a report for every entry with types in package.json, named after the entry', () => {
    const entries = packageEntries() as { entry: string; name: string }[];
    expect(entries.map((e) => e.name)).toEqual(
      expect.arrayContaining(['index', 'core', 'server', 'server-redis', 'mock']),
    );
    expect(entries.find((e) => e.entry === 'hub-embed')?.name).toBe('index');
  });

  it('a report lists each name with its kind and declaration', () => {
    const text = renderReport({ entry: 'hub-embed/x', names: [name('a', 'x:1')] }) as string;
    expect(text).toContain('# API report: `hub-embed/x`');
    expect(text).toContain('// a (value)\nconst a: string;');
  });
});

// The public surface, pinned (issue 45 item 3): the report generator that the fast gate runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namesInTwoEntries, packageEntries, renderReport, surfaceOf } from '../../scripts/api-report.mjs';

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

  describe('signatures only', () => {
    /** An element's declarations as tsc emits them (Lit's classes stubbed), with `variant` spliced in. */
    const element = (variant: { doc: string; attribute: string; param: string }) =>
      `declare class LitElement {}
declare class CSSResult {}
${variant.doc}
export declare class XCard extends LitElement {
    #private;
    static version: string;
    static styles: CSSResult[];
    static properties: {
        label: {
            attribute: string;
        };
    };
    /** ${variant.doc.replace(/\W+/g, ' ')} */
    label: string;
    /** Opens the card. */
    open(${variant.param}): boolean;
}
/** The default ${variant.attribute}. */
export declare const DEFAULT_LABEL = "x";
`.replace('attribute: string', `attribute: ${variant.attribute}`);

    const reports = new Map<string, string>();
    /** The report of `source` as the one file of an entry `hub-embed/x` (a compiler program each: kept). */
    function reportOf(source: string): string {
      const known = reports.get(source);
      if (known !== undefined) return known;
      const dir = mkdtempSync(join(tmpdir(), 'hub-api-report-'));
      try {
        writeFileSync(join(dir, 'x.d.ts'), source);
        const [surface] = surfaceOf(dir, [{ entry: 'hub-embed/x', file: 'x.d.ts', name: 'x' }]);
        if (!surface) throw new Error('surfaceOf returned no entry.');
        const report = renderReport(surface) as string;
        reports.set(source, report);
        return report;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }

    const base = { doc: '/** A card. */', attribute: 'string', param: 'why?: string' };

    it('a report does not change when only a doc comment does', () => {
      expect(reportOf(element({ ...base, doc: '/** A card that a user opens, with a longer story. */' }))).toBe(
        reportOf(element(base)),
      );
    });

    it("a report does not change when only Lit's static properties or styles do", () => {
      expect(reportOf(element({ ...base, attribute: 'boolean' }))).toBe(reportOf(element(base)));
      expect(reportOf(element(base))).not.toContain('static properties');
      expect(reportOf(element(base))).not.toContain('static styles');
    });

    it('a report changes when a signature does, and holds no comment', () => {
      const report = reportOf(element(base));
      expect(reportOf(element({ ...base, param: 'why: number' }))).not.toBe(report);
      expect(report).toContain('open(why?: string): boolean;');
      expect(report).toContain('static version: string;');
      expect(report).not.toMatch(/\/\*\*/);
    });
  });
});

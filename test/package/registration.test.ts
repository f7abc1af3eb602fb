// Where the elements are registered, as docs/architecture.md and CONTRIBUTING.md say: the first screen's in
// src/components/register.ts, <hub-form-frame> in the form half that brings it. A define() anywhere else
// (an element file registering itself) would register a tag on import, which hub-embed's `.` must never do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REGISTERING = ['src/components/register.ts', 'src/components/hub-embed/form-opener.ts'];

const sources = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => join(dir, name));

describe('registration', () => {
  it('every hub-* tag is defined once, in register.ts or the form half, and nowhere else', () => {
    const defined = sources('src').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bdefine\('(hub-[a-z-]+)'/g)].map((match) => `${match[1]} in ${file}`),
    );
    expect(defined.sort()).toEqual([
      'hub-embed in src/components/register.ts',
      'hub-form-frame in src/components/hub-embed/form-opener.ts',
      'hub-table-card in src/components/register.ts',
      'hub-table-grid in src/components/register.ts',
      'hub-tag-filter in src/components/register.ts',
    ]);
  });

  it('docs/architecture.md and CONTRIBUTING.md name both files that register', () => {
    for (const doc of ['docs/architecture.md', 'CONTRIBUTING.md']) {
      const text = readFileSync(doc, 'utf8');
      // CONTRIBUTING.md names them from src/, as its house style list names every source file.
      for (const file of REGISTERING) expect(text, doc).toContain(doc === 'CONTRIBUTING.md' ? file.slice(4) : file);
    }
  });
});

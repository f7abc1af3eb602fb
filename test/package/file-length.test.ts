// One job per file, held by a number: no module of the package's src/ passes 300 lines, the elements' files
// (hub-embed.ts, the grid's), the React Native view's hook and the bridge's among them (issue 81). A file that
// grows past it is split by its jobs, as src/components/hub-table-grid/ is, not given a longer limit.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MOST_LINES = 300;

function modules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

describe('file length', () => {
  const files = modules(join(ROOT, 'src'));

  it('reads the elements, the React Native view and the bridge among the modules it counts', () => {
    const names = files.map((file) => relative(ROOT, file).replaceAll('\\', '/'));
    for (const file of [
      'src/components/hub-embed/hub-embed.ts',
      'src/components/hub-table-grid/hub-table-grid.ts',
      'src/react-native/hub-embed-view.ts',
      'src/bridge/bridge.ts',
    ])
      expect(names).toContain(file);
  });

  it(`no module of src/ holds more than ${MOST_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > MOST_LINES);
    expect(long).toEqual([]);
  });
});

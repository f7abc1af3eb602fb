import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MOCK_DIR = fileURLToPath(new URL('../../packages/hub-embed-mock/src/', import.meta.url));

/** The local modules each simulator module imports (type imports included: they make a circle too). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(MOCK_DIR).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(MOCK_DIR + file, 'utf8');
    const targets = [...source.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`);
    graph.set(file, targets);
  }
  return graph;
}

function findCircle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (file: string, path: string[]): string[] | undefined => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next, [...path, file]);
      if (circle) return circle;
    }
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const circle = visit(file, []);
    if (circle) return circle;
  }
  return undefined;
}

describe('simulator module layout', () => {
  it('the Simulator interface lives in types.ts and no simulator module imports another in a circle', () => {
    expect(readFileSync(MOCK_DIR + 'types.ts', 'utf8')).toMatch(/export interface Simulator\b/);
    expect(findCircle(importGraph())).toBeUndefined();
  });

  it('only the entry points import hub.ts: its parts do not reach back into it', () => {
    const importers = [...importGraph()].filter(([, targets]) => targets.includes('hub.ts')).map(([file]) => file);
    expect(importers.sort()).toEqual(['index.ts', 'node.ts']);
  });
});

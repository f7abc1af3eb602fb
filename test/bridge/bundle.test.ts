/// <reference types="vite/client" />
// What the <script> bundle (entry src/define.ts) may pull in from the bridge.
import { describe, expect, it } from 'vitest';

// Vite inlines the sources as text, so this works in happy-dom and in Chromium alike.
const sources = import.meta.glob(['../../src/**/*.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** Every module statically reachable from `entry` through value imports and re-exports (not `import type`). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !(file in sources)) return;
    seen.add(file);
    for (const [, spec] of sources[file]!.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gm)) {
      const target = new URL(spec!.replace(/\.js$/, '.ts'), `file:///x/${file.replace(/^(\.\.\/)+/, '')}`).pathname.replace('/x/', '../../');
      visit(target);
    }
  };
  visit(entry);
  return seen;
}

describe('bridge in the <script> bundle', () => {
  it('the mock host is not reachable from src/define.ts, so it is never bundled', () => {
    const modules = reachable('../../src/define.ts');
    // The walk itself works: the widget and the bridge it uses are found.
    expect(modules).toContain('../../src/components/hub-embed/hub-embed.ts');
    expect(modules).toContain('../../src/bridge/bridge.ts');
    expect([...modules].filter((file) => /mock/.test(file))).toEqual([]);
    // The package entry does re-export it, which is why the walk must start at define.ts.
    expect(reachable('../../src/index.ts')).toContain('../../src/bridge/mock-host.ts');
  });

  it('RN, webkit and Android/Flutter share one string-posting channel factory', () => {
    const transports = sources['../../src/bridge/transports.ts']!;
    expect(transports.match(/\.postMessage\(json\)/g)).toHaveLength(1);
  });
});

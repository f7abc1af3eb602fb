/// <reference types="vite/client" />
// What the <script> bundles may pull in from the bridge: the plain one (src/define.ts) none of it, the
// WebView one (src/webview.ts) the bridge but never the mock hosts.
import { describe, expect, it } from 'vitest';

// Vite inlines the sources as text, so this works in happy-dom and in Chromium alike.
const sources = import.meta.glob(['../../src/**/*.ts'], { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

/** Every module statically reachable from `entry` through value imports and re-exports (not `import type`). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !(file in sources)) return;
    seen.add(file);
    for (const [, spec] of sources[file]!.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gm)) {
      const target = new URL(
        spec!.replace(/\.js$/, '.ts'),
        `file:///x/${file.replace(/^(\.\.\/)+/, '')}`,
      ).pathname.replace('/x/', '../../');
      visit(target);
    }
  };
  visit(entry);
  return seen;
}

describe('bridge in the <script> bundle', () => {
  it('the plain bundle (src/define.ts) carries no bridge code at all', () => {
    const modules = reachable('../../src/define.ts');
    expect(modules).toContain('../../src/components/hub-embed/hub-embed.ts');
    expect([...modules].filter((file) => file.includes('/bridge/'))).toEqual([]);
  });

  it('the WebView bundle (src/webview.ts) carries the bridge but never the mock host', () => {
    const modules = reachable('../../src/webview.ts');
    // The walk itself works: the widget and the bridge it plugs in are found.
    expect(modules).toContain('../../src/components/hub-embed/hub-embed.ts');
    expect(modules).toContain('../../src/bridge/bridge.ts');
    expect([...modules].filter((file) => /mock/.test(file))).toEqual([]);
    // The mock host is a host: hub-embed/host exports it, and no page entry reaches the host kernel.
    for (const entry of ['../../src/index.ts', '../../src/bridge/index.ts', '../../src/webview.ts']) {
      expect([...reachable(entry)].filter((file) => file.includes('/src/host/'))).toEqual([]);
    }
    expect(reachable('../../src/host/index.ts')).toContain('../../src/host/mock-host.ts');
  });

  it('RN, webkit and Android/Flutter share one string-posting channel factory', () => {
    const transports = sources['../../src/bridge/transports.ts']!;
    expect(transports.match(/\.postMessage\(json\)/g)).toHaveLength(1);
  });
});

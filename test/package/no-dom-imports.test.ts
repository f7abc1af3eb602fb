// Importing the package's main entries in plain Node, with no DOM, must not throw: servers import
// `hub-embed/server`, SSR frameworks import `hub-embed` and `hub-embed/core` for types and helpers.
// The built entries are checked again from the packed tarball by test/shipped/tarball.test.ts.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const ENTRIES = {
  'hub-embed': 'src/index.ts',
  'hub-embed/core': 'src/core/index.ts',
  'hub-embed/server': 'src/server/index.ts',
} as const;

/** Imports `file` in a fresh `node` process (no vitest, no DOM shims) and reports what it exports. */
function importInPlainNode(file: string): { keys: string[]; dom: Record<string, string> } {
  const script = `
    const dom = { window: typeof window, document: typeof document, HTMLElement: typeof HTMLElement, customElements: typeof customElements };
    const mod = await import(${JSON.stringify(new URL(file, `file://${ROOT}`).href)});
    console.log(JSON.stringify({ keys: Object.keys(mod).sort(), dom }));`;
  const out = execFileSync(
    process.execPath,
    ['--import', './scripts/ts-register.mjs', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('no-DOM imports of the source entries', () => {
  // In this vitest `node` project there is no DOM either; vite compiles the elements' decorators.
  it('importing hub-embed in Node (no DOM) does not throw and defines nothing', async () => {
    expect(typeof document).toBe('undefined');
    expect(typeof customElements).toBe('undefined');
    const main = await import('../../src/index.js');
    expect(Object.keys(main)).toEqual(
      expect.arrayContaining(['HubEmbed', 'HubFormFrame', 'HubTableCard', 'HubTableGrid', 'HubTagFilter']),
    );
    expect(typeof main.HubEmbed).toBe('function');
    const plumbing = await import('../../src/plumbing.js');
    expect(plumbing.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('the main entry is the elements, their types and the event map; the plumbing under them is hub-embed/plumbing (issue 83 item 4)', async () => {
    const main = await import('../../src/index.js');
    expect(Object.keys(main).sort()).toEqual([
      'HubEmbed',
      'HubFormFrame',
      'HubTableCard',
      'HubTableGrid',
      'HubTagFilter',
    ]);
    const plumbing = await import('../../src/plumbing.js');
    expect(Object.keys(plumbing).sort()).toEqual(
      ['HubElement', 'define', 'enableBridge', 'loadFormOpener', 'stringsFor', 'version'].sort(),
    );
    // The wire protocol lives in hub-embed/bridge.
    const bridge = await import('../../src/bridge/index.js');
    for (const name of ['parseMessage', 'toScriptLiteral', 'BRIDGE_NS', 'detectTransport', 'connectBridge'])
      expect(bridge).toHaveProperty(name);
  });

  it('importing hub-embed/core in Node (no DOM) does not throw', async () => {
    const core = await import('../../src/core/index.js');
    expect(Object.keys(core)).toEqual(
      expect.arrayContaining(['WebClient', 'TokenSource', 'buildFormUrl', 'tokenFromEndpoint', 'HubError']),
    );
  });

  it('importing hub-embed/server in Node (no DOM) does not throw', async () => {
    const server = await import('../../src/server/index.js');
    expect(Object.keys(server)).toEqual(
      expect.arrayContaining(['createServerClient', 'createTokenHandler', 'createWebhookHandler', 'toNodeListener']),
    );
  });

  // A second opinion from a bare `node` process, outside vitest, through the repo's TS loader
  // (scripts/ts-register.mjs); the built entries are imported in bare Node from the packed tarball by
  // test/shipped/tarball.test.ts.
  for (const name of ['hub-embed', 'hub-embed/core', 'hub-embed/server'] as const) {
    it(`importing ${name} in a bare node process (no DOM, no vitest) does not throw`, () => {
      const { keys, dom } = importInPlainNode(ENTRIES[name]);
      // The check is only meaningful if the process really had no DOM.
      expect(dom).toEqual({
        window: 'undefined',
        document: 'undefined',
        HTMLElement: 'undefined',
        customElements: 'undefined',
      });
      expect(keys.length).toBeGreaterThan(3);
    }, 30_000);
  }
});

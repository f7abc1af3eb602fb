// build/wechat-imports.ts: the WeChat add-on's imports resolve to its own modules or to the WebView bundle's
// global, and the module it writes for that global parses and stops, naming the missing script, without it.
import { Parser } from 'acorn';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { wechatImports, wechatModules } from './wechat-imports.ts';

const IMPORTS = resolve('src/bridge/wechat-imports.ts');
/** The plugin's hooks, with the bundler's resolve and load standing in for the bundler. */
const context = {
  resolve: async (source: string) => ({ id: source.startsWith('/') ? source : resolve('src/bridge', source) }),
  load: async () => ({ exports: ['registerTransport', 'BridgeError'] }),
};
/** One of the plugin's hooks, which it writes as a plain function (no object with a handler). */
function hook<F>(value: unknown): F {
  if (typeof value !== 'function') throw new Error('expected the hook as a function');
  return value as F;
}
const resolveId = (source: string, importer?: string) =>
  hook<(this: typeof context, s: string, i?: string, o?: object) => Promise<unknown>>(wechatImports.resolveId).call(
    context,
    source,
    importer,
    {},
  );
const load = (id: string) =>
  hook<(this: typeof context, id: string) => Promise<string | null>>(wechatImports.load).call(context, id);

describe('wechatImports', () => {
  it("resolves the add-on's own modules as they are, and its imports module to the WebView bundle's global", async () => {
    expect(await resolveId(wechatModules[1]!, wechatModules[0])).toEqual({ id: wechatModules[1] });
    const id = await resolveId(IMPORTS, wechatModules[1]);
    expect(id).toBe('\0hub-embed:wechat-imports');
  });

  it('fails the build on any other import, naming it', async () => {
    await expect(resolveId('lit', wechatModules[1])).rejects.toThrow(/The WeChat add-on imports lit \(from /);
  });

  it('writes a module that parses, takes each name from HubEmbed, and names the missing script without it', async () => {
    const code = await load('\0hub-embed:wechat-imports');
    expect(code).not.toBeNull();
    Parser.parse(code!, { ecmaVersion: 'latest', sourceType: 'module' });
    // As a script, each name a constant of its own: run on a page with and without the WebView bundle.
    const script = `${code!.replace('export const', 'const')};[registerTransport, BridgeError]`;
    expect(() => runInNewContext(script, {})).toThrow(/load dist\/hub-embed-webview\.iife\.js before it/);
    expect(runInNewContext(script, { HubEmbed: { registerTransport: 1, BridgeError: 2 } })).toEqual([1, 2]);
  });
});

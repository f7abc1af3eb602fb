import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The WeChat add-on (src/webview/enable-wechat.ts, src/bridge/wechat.ts) as a classic script,
 * dist/hub-embed-wechat.js, which a page in a WeChat mini-program's <web-view> adds right after
 * dist/hub-embed-webview.iife.js. Like the form half, it imports from outside itself one module only, its
 * imports module (src/bridge/wechat-imports.ts: the bridge's transport registry and BridgeError). Here each
 * of the imports module's names is the one the WebView bundle puts on its HubEmbed global
 * (src/script-tag-webview.ts exports them), so the add-on plugs into that bundle's own bridge.
 */
const WECHAT_IMPORTS = resolve('src/bridge/wechat-imports.ts');
const WECHAT_IMPORTS_IN_ADDON = '\0hub-embed:wechat-imports';
/** The modules of the add-on; the first is its entry. */
export const wechatModules = ['src/webview/enable-wechat.ts', 'src/bridge/wechat.ts'].map((file) => resolve(file));

/**
 * Why: the add-on must use the WebView bundle's bridge, not a copy of its own, so any import that leaves
 * the add-on fails the build, naming it, and the imports module reads from the bundle's HubEmbed global.
 */
export const wechatImports: Plugin = {
  name: 'hub-embed-wechat-imports',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!importer) return null;
    // The imports module itself is loaded only for its names (below): nothing it imports is bundled.
    if (importer === WECHAT_IMPORTS) return { id: source, external: true };
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (resolved && wechatModules.includes(resolved.id)) return resolved;
    if (resolved?.id === WECHAT_IMPORTS) return WECHAT_IMPORTS_IN_ADDON;
    throw new Error(
      `The WeChat add-on imports ${source} (from ${importer}), which is neither one of its modules (wechatModules ` +
        'in build/wechat-imports.ts) nor its imports module: take what it needs of the WebView bundle from src/bridge/wechat-imports.ts.',
    );
  },
  // Loaded without the WebView bundle before it (or after the plain one, which has no bridge), the add-on
  // stops with an error that names the missing script, before it touches anything.
  async load(id) {
    if (id !== WECHAT_IMPORTS_IN_ADDON) return null;
    const { exports } = await this.load({ id: WECHAT_IMPORTS });
    const missing = JSON.stringify(
      "hub-embed-wechat.js: load dist/hub-embed-webview.iife.js before it (hub-embed's WebView bundle, whose bridge it plugs into).",
    );
    return [
      `const link = globalThis.HubEmbed;`,
      `if (${exports.map((name) => `!link?.${name}`).join(' || ')}) throw new Error(${missing});`,
      `export const { ${exports.join(', ')} } = link;`,
    ].join('\n');
  },
};

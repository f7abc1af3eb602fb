// Module hooks for the React Native harness: `react-native`, `react-native-webview` and
// `react-native-safe-area-context` resolve to the
// stand-ins beside this file, so <HubEmbedView> runs unchanged with only the native views replaced. The
// example app's `hub-embed/react-native` is the built entry, dist/react-native.js, as an app gets it (its
// peers resolve to the same stand-ins; `npm run ci -- hosts` builds first): react-native-example.test.ts
// runs what ships. The other files import the sources (rn-harness.ts).
const STANDINS = {
  'react-native': new URL('./react-native.ts', import.meta.url).href,
  'react-native-webview': new URL('./react-native-webview.ts', import.meta.url).href,
  'react-native-safe-area-context': new URL('./react-native-safe-area-context.ts', import.meta.url).href,
  'hub-embed/react-native': new URL('../../../dist/react-native.js', import.meta.url).href,
  'hub-embed/server': new URL('../../../src/server/index.ts', import.meta.url).href,
};

/** The example's .tsx screen, compiled as Vite's own transform compiles TypeScript (scripts/ts-hooks.mjs). */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.tsx') || url.includes('/node_modules/'))
    return nextLoad(url, context);
  const { readFile } = await import('node:fs/promises');
  const { fileURLToPath } = await import('node:url');
  const { transformWithOxc } = await import('vite');
  const path = fileURLToPath(url);
  const { code } = await transformWithOxc(await readFile(path, 'utf8'), path, {
    sourcemap: false,
    jsx: { runtime: 'automatic' },
    typescript: { onlyRemoveTypeImports: false },
  });
  return { format: 'module', source: code, shortCircuit: true };
}

/**
 * The react-native-webview version <HubEmbedView> reads as it loads (its package.json): the one the stand-in
 * plays (HUB_RN_WEBVIEW, 13.9.1 by default), or HUB_RN_WEBVIEW_PACKAGE_VERSION for a test of the floor.
 */
function webViewPackage() {
  const version =
    process.env.HUB_RN_WEBVIEW_PACKAGE_VERSION ??
    { 14: '14.0.1', 16: '16.0.0' }[process.env.HUB_RN_WEBVIEW ?? ''] ??
    '13.9.1';
  return `data:text/javascript,export default ${encodeURIComponent(JSON.stringify({ version }))};`;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'react-native-webview/package.json')
    return { url: webViewPackage(), shortCircuit: true, format: 'module' };
  if (Object.hasOwn(STANDINS, specifier)) return { url: STANDINS[specifier], shortCircuit: true, format: 'module' };
  // The example imports its neighbours without an extension, as Metro resolves them.
  if (context.parentURL?.includes('/examples/react-native/') && /^\.\/[\w-]+$/.test(specifier))
    return { url: new URL(`${specifier}.ts`, context.parentURL).href, shortCircuit: true, format: 'module' };
  return nextResolve(specifier, context);
}

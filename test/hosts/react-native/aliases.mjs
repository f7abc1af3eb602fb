// Module hooks for the React Native harness: `react-native` and `react-native-webview` resolve to the
// stand-ins beside this file, so <HubEmbedView> runs unchanged with only the native views replaced; the
// package's own entries that examples/react-native imports resolve to the sources, so no build is needed.
const STANDINS = {
  'react-native': new URL('./react-native.ts', import.meta.url).href,
  'react-native-webview': new URL('./react-native-webview.ts', import.meta.url).href,
  'hub-embed/react-native': new URL('../../../src/react-native/index.ts', import.meta.url).href,
  'hub-embed/server': new URL('../../../src/server/index.ts', import.meta.url).href,
};

export async function resolve(specifier, context, nextResolve) {
  if (Object.hasOwn(STANDINS, specifier)) return { url: STANDINS[specifier], shortCircuit: true, format: 'module' };
  return nextResolve(specifier, context);
}

// Module hooks for the React Native harness: `react-native` and `react-native-webview` resolve to the
// stand-ins beside this file, so <HubEmbedView> runs unchanged with only the native views replaced.
const STANDINS = {
  'react-native': new URL('./react-native.ts', import.meta.url).href,
  'react-native-webview': new URL('./react-native-webview.ts', import.meta.url).href,
};

export async function resolve(specifier, context, nextResolve) {
  if (Object.hasOwn(STANDINS, specifier)) return { url: STANDINS[specifier], shortCircuit: true, format: 'module' };
  return nextResolve(specifier, context);
}

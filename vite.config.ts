import { defineConfig, type UserConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { asciiOnly } from './build/ascii-only.ts';
import { FORM_CHUNK, formChunkModules, formHalfImports } from './build/form-half-imports.ts';
import { minifyTemplates } from './build/minify-templates.ts';
import { leanLit } from './build/lean-lit.ts';
import { formChunkDefine, scriptFormLoader } from './build/script-form-loader.ts';
import { shortLitErrors } from './build/short-lit-errors.ts';
import { skipSecondCopy } from './build/skip-second-copy.ts';
import { terserPass } from './build/terser-pass.ts';
import { wechatImports, wechatModules } from './build/wechat-imports.ts';

// The builds only; the test projects are in vitest.config.ts, and each plugin is a file under build/.
// scripts/build.mjs runs them in this order:
//   vite build                   -> ES modules for every package entry, dependencies, peers and Node built-ins external
//   vite build --mode form-chunk -> dist/hub-embed.form.js, the form half of the <script> bundles
//   vite build --mode iife       -> dist/hub-embed.iife.js, one classic script with Lit bundled
//   vite build --mode iife-webview -> dist/hub-embed-webview.iife.js, the same with the WebView bridge
//   vite build --mode wechat     -> dist/hub-embed-wechat.js, the WeChat add-on to the WebView bundle
//   vite build --mode mock       -> packages/hub-embed-mock/dist/, the simulator's package

/**
 * The package's version in every build and test, and whether the code may meet the WebView bridge: every
 * build but the plain <script> bundle's, whose define sets it false (src/globals.d.ts).
 */
export const define = { __HUB_EMBED_VERSION__: JSON.stringify(pkg.version), __HUB_EMBED_WITH_BRIDGE__: 'true' };

// The ES build bundles this package's own modules only. Every dependency and peer dependency (with its
// subpaths: lit/static-html.js, react-native/Libraries/…) stays an import, read from package.json so the
// list cannot drift from what the package declares: the app's bundler resolves each to the app's single
// copy. scripts/dist-imports.mjs checks the output (the end of `npm run build`).
const declared = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)];
const external = (id: string) =>
  id.startsWith('node:') || declared.some((name) => id === name || id.startsWith(`${name}/`));

const esBuild: UserConfig['build'] = {
  outDir: 'dist',
  emptyOutDir: false,
  target: 'es2022',
  minify: false,
  // No maps: they would point at src/, which the package does not ship; the ES output is readable as is.
  sourcemap: false,
  lib: {
    entry: {
      index: 'src/index.ts',
      define: 'src/define.ts',
      webview: 'src/webview.ts',
      core: 'src/core/index.ts',
      bridge: 'src/bridge/index.ts',
      host: 'src/host/index.ts',
      server: 'src/server/index.ts',
      'server-redis': 'src/server/redis-token-cache.ts',
      mock: 'src/mock.ts',
      react: 'src/react/index.ts',
      vue: 'src/vue/index.ts',
      'react-native': 'src/react-native/index.ts',
      wechat: 'src/webview/enable-wechat.ts',
      plumbing: 'src/plumbing.ts',
    },
    formats: ['es'],
  },
  rolldownOptions: { external },
};

// The hub-embed-mock package, into its own dist/: the simulator and its CLI. The leaf modules of core it
// shares and openapi.json are bundled in, so the package needs nothing of hub-embed at run time.
const mockBuild: UserConfig['build'] = {
  outDir: 'packages/hub-embed-mock/dist',
  emptyOutDir: false,
  target: 'es2022',
  minify: false,
  sourcemap: false,
  lib: {
    entry: { index: 'packages/hub-embed-mock/src/index.ts', cli: 'packages/hub-embed-mock/src/cli.ts' },
    formats: ['es'],
  },
  rolldownOptions: {
    external: (id: string) => id.startsWith('node:'),
    output: {
      // A shared chunk is named after its first module; the simulator's (the main entry and the CLI share
      // it) would be `certify-*.js`, which is one command of it. Named after what it holds instead.
      chunkFileNames: (chunk) =>
        chunk.moduleIds.some((id) => id.endsWith('/packages/hub-embed-mock/src/hub.ts'))
          ? 'simulator-[hash].js'
          : '[name]-[hash].js',
    },
  },
};

const formChunkBuild: UserConfig['build'] = {
  outDir: 'dist',
  emptyOutDir: false,
  target: 'es2022',
  minify: true,
  sourcemap: false,
  lib: { entry: formChunkModules[0]!, name: '__hubEmbedFormHalf', formats: ['iife'], fileName: () => FORM_CHUNK },
  rolldownOptions: { output: { generatedCode: { symbols: false } } },
};

// Two classic scripts: the plain one for web pages, and one with the WebView bridge behind
// <hub-embed bridge="auto"> (the bridge would not fit the plain bundle's size budget).
const iifeBuild = (entry: string, file: string): UserConfig['build'] => ({
  outDir: 'dist',
  emptyOutDir: false,
  target: 'es2022',
  minify: true,
  sourcemap: false,
  lib: { entry, name: 'HubEmbed', formats: ['iife'], fileName: () => file },
  // No `Symbol.toStringTag: 'Module'` on the HubEmbed global: nothing reads it, and it costs bytes.
  rolldownOptions: { output: { generatedCode: { symbols: false } } },
});

const wechatBuild: UserConfig['build'] = {
  outDir: 'dist',
  emptyOutDir: false,
  target: 'es2022',
  minify: true,
  sourcemap: false,
  lib: { entry: wechatModules[0]!, name: '__hubEmbedWeChat', formats: ['iife'], fileName: () => 'hub-embed-wechat.js' },
};

export default defineConfig(({ mode }) => ({
  define: mode.startsWith('iife')
    ? {
        ...define,
        ...formChunkDefine(mode === 'iife' ? 'hub-embed' : 'hub-embed-webview'),
        __HUB_EMBED_WITH_BRIDGE__: String(mode === 'iife-webview'),
      }
    : define,
  build:
    mode === 'iife'
      ? iifeBuild('src/script-tag.ts', 'hub-embed.iife.js')
      : mode === 'iife-webview'
        ? iifeBuild('src/script-tag-webview.ts', 'hub-embed-webview.iife.js')
        : mode === 'form-chunk'
          ? formChunkBuild
          : mode === 'wechat'
            ? wechatBuild
            : mode === 'mock'
              ? mockBuild
              : esBuild,
  plugins: mode.startsWith('iife')
    ? [scriptFormLoader, minifyTemplates, leanLit, shortLitErrors, terserPass, skipSecondCopy(pkg.version), asciiOnly]
    : mode === 'form-chunk'
      ? [formHalfImports, minifyTemplates, leanLit, terserPass, asciiOnly]
      : mode === 'wechat'
        ? [wechatImports, terserPass, asciiOnly]
        : mode === 'mock'
          ? []
          : // The ES build: the app's bundler minifies code, but never the text of Lit's templates.
            [minifyTemplates],
}));

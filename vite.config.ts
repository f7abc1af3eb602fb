import { defineConfig, type Plugin, type UserConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { asciiOnly } from './build/ascii-only.ts';
import { FORM_CHUNK, formChunkModules, formHalfImports } from './build/form-half-imports.ts';
import { minifyTemplates } from './build/minify-templates.ts';
import { leanLit } from './build/lean-lit.ts';
import { formChunkDefine, scriptFormLoader } from './build/script-form-loader.ts';
import { shortLitErrors } from './build/short-lit-errors.ts';
import { secondCopyGuard } from './build/second-copy-guard.ts';
import { terserPass } from './build/terser-pass.ts';
import { wechatImports, wechatModules } from './build/wechat-imports.ts';

// The builds only; the test projects are in vitest.config.ts, and each plugin is a file under build/.
// One base (BASE) and one table of modes (MODES): each mode says what it builds and which plugins it runs,
// in the order they run. scripts/build.mjs runs the modes in this order:
//   vite build                     -> ES modules for every package entry, dependencies, peers and Node built-ins external
//   vite build --mode form-chunk   -> dist/hub-embed.form.js, the form half of the <script> bundles
//   vite build --mode iife         -> dist/hub-embed.iife.js, one classic script with Lit bundled
//   vite build --mode iife-webview -> dist/hub-embed-webview.iife.js, the same with the WebView bridge
//   vite build --mode wechat       -> dist/hub-embed-wechat.js, the WeChat add-on to the WebView bundle
//   vite build --mode mock         -> packages/hub-embed-mock/dist/, the simulator's package

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

/** What every build shares: into dist/ beside the others' output, modern syntax, no source maps. */
const BASE = {
  outDir: 'dist',
  emptyOutDir: false,
  target: 'es2022',
  // No maps: they would point at src/, which the package does not ship (npm run size:why asks for its own).
  sourcemap: false,
} satisfies UserConfig['build'];

/** A classic script (the <script> bundles, the form half, the WeChat add-on): minified, one global. */
function classicScript(entry: string, name: string, fileName: string, intro?: string): UserConfig['build'] {
  return {
    ...BASE,
    minify: true,
    lib: { entry, name, formats: ['iife'], fileName: () => fileName },
    // No `Symbol.toStringTag: 'Module'` on the global: nothing reads it, and it costs bytes.
    rolldownOptions: { output: { generatedCode: { symbols: false }, intro } },
  };
}

/**
 * The plugins of the classic scripts, in the order they act, which is the order here:
 * 1. resolving (enforce 'pre'): which module a classic script takes in place of one that imports
 *    (scriptFormLoader), or which imports may leave a chunk (formHalfImports, wechatImports);
 * 2. transforming our own sources (enforce 'pre'): their html`` and css`` text minified (minifyTemplates),
 *    before the TypeScript transform;
 * 3. transforming Lit's modules as they load (leanLit, shortLitErrors; issue 81 removes both);
 * 4. generateBundle, after Vite's own minifier: Terser's pass, which parses the chunk and minifies it again
 *    (terserPass), then the escapes of every character beyond ASCII, in the tokens of the chunk as parsed
 *    (asciiOnly), last, so that no step after it writes another.
 * The guard against a second copy is no rewrite: it is the bundler's intro (secondCopyGuard), the first
 * statement of the script's function.
 */
const SCRIPT_PLUGINS: Plugin[] = [scriptFormLoader, minifyTemplates, leanLit, shortLitErrors, terserPass, asciiOnly];
const FORM_CHUNK_PLUGINS: Plugin[] = [formHalfImports, minifyTemplates, leanLit, terserPass, asciiOnly];
const WECHAT_PLUGINS: Plugin[] = [wechatImports, terserPass, asciiOnly];

/** The <script> bundles' defines: their form half's file and integrity, and whether the bridge is in. */
const scriptDefine = (bundle: 'hub-embed' | 'hub-embed-webview') => ({
  ...define,
  ...formChunkDefine(bundle),
  __HUB_EMBED_WITH_BRIDGE__: String(bundle === 'hub-embed-webview'),
});

interface Mode {
  build: UserConfig['build'];
  plugins: Plugin[];
  /** Made when the mode is built: the <script> bundles' read the form half built before them. */
  define?: () => Record<string, string>;
}

/** Every build, by its --mode (the ES build is the default mode, 'production'). */
const MODES: Record<string, Mode> = {
  // The ES build: the app's bundler minifies code, but never the text of Lit's templates.
  production: {
    build: {
      ...BASE,
      minify: false,
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
          // The same entry for the web (the `browser` condition): <hub-embed> itself, no WebView.
          'react-native.web': 'src/react-native/web.ts',
          wechat: 'src/webview/enable-wechat.ts',
          plumbing: 'src/plumbing.ts',
        },
        formats: ['es'],
      },
      rolldownOptions: { external },
    },
    plugins: [minifyTemplates],
  },
  'form-chunk': {
    build: classicScript(formChunkModules[0]!, '__hubEmbedFormHalf', FORM_CHUNK),
    plugins: FORM_CHUNK_PLUGINS,
  },
  // Two classic scripts: the plain one for web pages, and one with the WebView bridge behind
  // <hub-embed bridge="auto"> (the bridge would not fit the plain bundle's size budget).
  iife: {
    build: classicScript('src/script-tag.ts', 'HubEmbed', 'hub-embed.iife.js', secondCopyGuard(pkg.version)),
    plugins: SCRIPT_PLUGINS,
    define: () => scriptDefine('hub-embed'),
  },
  'iife-webview': {
    build: classicScript(
      'src/script-tag-webview.ts',
      'HubEmbed',
      'hub-embed-webview.iife.js',
      secondCopyGuard(pkg.version),
    ),
    plugins: SCRIPT_PLUGINS,
    define: () => scriptDefine('hub-embed-webview'),
  },
  wechat: {
    build: classicScript(wechatModules[0]!, '__hubEmbedWeChat', 'hub-embed-wechat.js'),
    plugins: WECHAT_PLUGINS,
  },
  // The hub-embed-mock package, into its own dist/: the simulator and its CLI. The leaf modules of core it
  // shares and openapi.json are bundled in, so the package needs nothing of hub-embed at run time.
  mock: {
    build: {
      ...BASE,
      outDir: 'packages/hub-embed-mock/dist',
      minify: false,
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
    },
    plugins: [],
  },
};

export default defineConfig(({ mode }) => {
  const chosen = MODES[mode];
  if (!chosen) throw new Error(`vite.config.ts has no mode "${mode}": one of ${Object.keys(MODES).join(', ')}.`);
  return { define: chosen.define?.() ?? define, build: chosen.build, plugins: chosen.plugins };
});

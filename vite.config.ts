import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { minifyHTMLLiterals } from 'minify-literals';
import { minify } from 'terser';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from './scripts/chromium.mjs';
import pkg from './package.json' with { type: 'json' };

// One config for both builds and all test projects.
//   vite build              -> ES modules for every package entry, Lit and Node built-ins external
//   vite build --mode iife  -> dist/hub-embed.iife.js, one classic script with Lit bundled
const define = { __HUB_EMBED_VERSION__: JSON.stringify(pkg.version) };

// The framework bindings leave React and Vue to the application (peer dependencies).
const external = [
  /^lit($|\/)/,
  /^@lit\//,
  /^node:/,
  'ipaddr.js',
  'proxy-addr',
  'lru-cache',
  /^react($|\/)/,
  /^react-native($|-webview|\/)/,
  /^vue($|\/)/,
];

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
      mock: 'src/mock/index.ts',
      'mock-cli': 'src/mock/cli.ts',
      react: 'src/react/index.ts',
      vue: 'src/vue/index.ts',
      'react-native': 'src/react-native/index.ts',
    },
    formats: ['es'],
  },
  rolldownOptions: { external },
};

/**
 * Source templates and stylesheets are written for people, indented and commented; the <script> bundles
 * get them minified. Lit ships html`` and css`` text verbatim, so without this every indent would ship.
 * minify-literals (html-minifier-next for templates, Lightning CSS for stylesheets) keeps Lit's binding
 * markers and attribute case intact.
 *
 * Then a stylesheet without interpolation, css`text`, becomes unsafeCSS(`text`): the same CSSResult (the
 * text is constant source, nothing from outside), without the css tag's check of interpolated values and
 * its long error text in the bundle (142 B gzip). It runs first ('pre'), on the TypeScript as written.
 */
const minifyTemplates: Plugin = {
  name: 'hub-embed-minify-templates',
  enforce: 'pre',
  async transform(source, id) {
    if (!/\/src\/.*\.ts$/.test(id) || !/\b(html|css)`/.test(source)) return null;
    // Unquoted attribute values where HTML allows them (no space, quote, `=`, `<`, `>` or backtick): Lit
    // parses its templates as HTML, so `part=grid` is `part="grid"`; 25 B gzip on each bundle.
    const code =
      (await minifyHTMLLiterals(source, { fileName: id, html: { removeAttributeQuotes: true } }))?.code ?? source;
    if (!code.includes("import { css } from 'lit';")) return code;
    const constantSheets = code.replace(/\bcss`([^`$\\]*)`/g, 'unsafeCSS(`$1`)');
    if (/\bcss`/.test(constantSheets)) return code; // a sheet with interpolation keeps the checking tag
    return constantSheets.replace("import { css } from 'lit';", "import { unsafeCSS } from 'lit';");
  },
};

/**
 * A second minifier over the first one's output: Terser's compressor (three passes) and mangler find what
 * Oxc's leaves: 31 B gzip on the plain bundle, 59 B on the WebView one, the two "unsafe" options included
 * (measured when prefetch was added, docs/benchmarks.md). They are safe for this code: nothing in
 * it (Lit included) constructs a function expression with `new` (unsafe_arrows: arrows have no
 * prototype) or reads a function's `length` (keep_fargs: false drops unused trailing parameters).
 * For the WebView bundle also hoist_funs: it moves function declarations to the top of their scope, where
 * JavaScript hoists them anyway, and gzip then finds the bridge's helpers together (16 B smaller; on the
 * plain bundle the same option costs 37 B, so it is off there).
 * Terser alone (`build.minify: 'terser'`) does worse here: 150 B more than Oxc alone.
 */
const terserPass = (hoistFunctions: boolean): Plugin => ({
  name: 'hub-embed-terser-pass',
  async generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      chunk.code = (
        await minify(chunk.code, {
          ecma: 2020,
          compress: { passes: 3, unsafe_arrows: true, keep_fargs: false, hoist_funs: hoistFunctions },
          mangle: true,
        })
      ).code!;
    }
  },
});

/**
 * A second copy of the same version of the <script> bundle on one page does nothing at all: not even
 * Lit's module code runs, so a strict Trusted Types page does not see a second 'lit-html' policy.
 */
const skipSecondCopy: Plugin = {
  name: 'hub-embed-skip-second-copy',
  // After minification, so the guard is the very first statement of the file.
  generateBundle(_, bundle) {
    const head = 'var HubEmbed=';
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      if (!chunk.code.startsWith(head))
        throw new Error(`The IIFE no longer starts with "${head}"; update the skip-second-copy guard.`);
      chunk.code = `var HubEmbed=self.HubEmbed?.version===${JSON.stringify(pkg.version)}?self.HubEmbed:${chunk.code.slice(head.length)}`;
    }
  },
};

/**
 * The <script> bundles are pure ASCII: every other character is written as a \uXXXX escape. A script is
 * decoded with its page's charset when its server sends none, so UTF-8 Chinese text would turn to
 * mojibake on a GBK or Latin-1 page; and the escapes happen to gzip smaller than UTF-8 bytes.
 */
const asciiOnly: Plugin = {
  name: 'hub-embed-ascii-only',
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      // An escape after a backslash would change meaning (`\é` is not `\\u00e9`); minifiers never emit one.
      if (/\\[^\x00-\x7f]/.test(chunk.code))
        throw new Error(`${chunk.fileName}: a backslash before a non-ASCII character.`);
      chunk.code = chunk.code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
  },
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
  // No `Symbol.toStringTag: 'Module'` on the HubEmbed global: nothing reads it, and it costs 29 B gzip.
  rolldownOptions: { output: { generatedCode: { symbols: false } } },
});

// Browser project: real Chromium through playwright-core. Without one, skip loudly, or fail when
// HUB_REQUIRE_BROWSER=1 (CI) so a missing browser can never pass as green.
const chromium = findChromium();
if (!chromium) {
  if (process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(`HUB_REQUIRE_BROWSER=1: ${CHROMIUM_MISSING}`);
  console.warn(`\n!!! SKIPPING the browser test project: ${CHROMIUM_MISSING}\n`);
}

const browserTests = ['test/core/**/*.test.ts', 'test/components/**/*.test.ts', 'test/bridge/**/*.test.ts'];

/**
 * @open-wc/testing 4 (the last version for Node 20) is written for Web Test Runner. Under Vitest:
 * its chai comes as an ES module only at @esm-bundle/chai/esm/chai.js, and the package must be inlined so
 * that Vite, not Node, resolves that alias.
 */
const openWcTesting = {
  alias: { '@esm-bundle/chai': '@esm-bundle/chai/esm/chai.js' },
  server: { deps: { inline: [/@open-wc\//] } },
};

/**
 * In the browser, @open-wc/testing's snapshot plugin (semantic-dom-diff, through @web/test-runner-commands)
 * imports Web Test Runner's dev-server web socket, which Vitest does not serve. Snapshots are Vitest's
 * here, so nothing of it runs, and an empty module stands in for it.
 */
const webTestRunnerSocket: Plugin = {
  name: 'hub-embed-web-test-runner-socket',
  resolveId: (id) => (id.endsWith('__web-dev-server__web-socket.js') ? '\0wtr-socket' : null),
  load: (id) => (id === '\0wtr-socket' ? 'export default {}; export const sendMessage = () => {};' : null),
};

export default defineConfig(({ mode }) => ({
  define,
  build:
    mode === 'iife'
      ? iifeBuild('src/define.ts', 'hub-embed.iife.js')
      : mode === 'iife-webview'
        ? iifeBuild('src/webview.ts', 'hub-embed-webview.iife.js')
        : esBuild,
  plugins: mode.startsWith('iife')
    ? [minifyTemplates, terserPass(mode === 'iife-webview'), skipSecondCopy, asciiOnly]
    : [],
  test: {
    reporters: ['default', './test/skipped-reporter.ts'],
    // Every test starts from the real globals and functions: no spy or stub outlives its test.
    restoreMocks: true,
    unstubGlobals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: browserTests,
          setupFiles: ['test/setup-lit.ts', 'test/setup-happy-dom.ts', 'test/setup-fixtures.ts'],
          ...openWcTesting,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          setupFiles: ['test/setup-lit.ts'],
          include: [
            'test/server/**/*.test.ts',
            'test/mock/**/*.test.ts',
            'test/package/**/*.test.ts',
            'test/host/**/*.test.ts',
            'test/examples/*.test.ts',
          ],
        },
      },
      ...(chromium
        ? [
            {
              extends: true as const,
              plugins: [webTestRunnerSocket],
              test: {
                name: 'browser',
                ...openWcTesting,
                setupFiles: ['test/setup-lit.ts', 'test/setup-fixtures.ts'],
                // The framework bindings render with the real React and Vue: Chromium only.
                include: [...browserTests, 'test/bindings/**/*.test.ts'],
                browser: {
                  enabled: true,
                  headless: true,
                  screenshotFailures: false,
                  provider: playwright({ launchOptions: { executablePath: chromium, args: CHROMIUM_ARGS } }),
                  instances: [{ browser: 'chromium' as const }],
                },
              },
            },
          ]
        : []),
    ],
  },
}));

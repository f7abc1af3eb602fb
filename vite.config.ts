import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { minifyHTMLLiterals } from 'minify-literals';
import { playwright } from '@vitest/browser-playwright';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findTestChromium } from './scripts/chromium.mjs';
import pkg from './package.json' with { type: 'json' };

// One config for both builds and all test projects.
//   vite build              -> ES modules for every package entry, dependencies, peers and Node built-ins external
//   vite build --mode iife  -> dist/hub-embed.iife.js, one classic script with Lit bundled
//   vite build --mode wechat -> dist/hub-embed-wechat.js, the WeChat add-on to the WebView bundle
const define = { __HUB_EMBED_VERSION__: JSON.stringify(pkg.version) };

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
      mock: 'src/mock/index.ts',
      'mock-cli': 'src/mock/cli.ts',
      react: 'src/react/index.ts',
      vue: 'src/vue/index.ts',
      'react-native': 'src/react-native/index.ts',
      wechat: 'src/webview/enable-wechat.ts',
    },
    formats: ['es'],
  },
  rolldownOptions: { external },
};

/**
 * Source templates and stylesheets are written for people, indented and commented; the <script> bundles
 * get them minified. Lit ships html`` and css`` text verbatim, so without this every indent would ship.
 * minify-literals (html-minifier-terser for templates, clean-css for stylesheets) keeps Lit's binding
 * markers and attribute case intact.
 */
const minifyTemplates: Plugin = {
  name: 'hub-embed-minify-templates',
  enforce: 'pre',
  async transform(source, id) {
    if (!/\/src\/.*\.ts$/.test(id) || !/\b(html|css)`/.test(source)) return null;
    // With its source map: without it the components' code maps to nothing, in the shipped .map files
    // and in `npm run size:why` (which then counted every element as "(glue)").
    const minified = await minifyHTMLLiterals(source, { fileName: id });
    return minified ? { code: minified.code, map: minified.map?.toString() } : null;
  },
};

/**
 * Lit's css`` tag throws two long messages that only a misuse in our own stylesheets could reach (a page
 * cannot call the bundle's css``): the <script> bundles carry them in short, which saves about 90 B gzip.
 */
const LIT_CSS_ERRORS: [string, string][] = [
  ['"CSSResult is not constructable. Use `unsafeCSS` or `css` instead."', '"CSSResult: use css"'],
  [
    `"Value passed to 'css' function must be a 'css' function result: "+t+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security."`,
    '"css: not a css result: "+t',
  ],
];
const shortLitErrors: Plugin = {
  name: 'hub-embed-short-lit-errors',
  transform(source, id) {
    if (!id.includes('/@lit/reactive-element/css-tag.js')) return null;
    let code = source;
    for (const [long, short] of LIT_CSS_ERRORS) {
      if (!code.includes(long)) throw new Error(`Lit's css-tag.js no longer says ${long}; update shortLitErrors.`);
      code = code.replace(long, short);
    }
    return { code, map: null };
  },
};

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

/**
 * The form half of <hub-embed> (src/components/hub-embed/form-opener.ts) loads on intent. In the ES
 * build that is a dynamic import, and the page's bundler makes the chunk. A classic script has no
 * imports, so for the <script> bundles the form half is a classic script of its own, built first:
 * dist/hub-embed.form.js, copied to dist/hub-embed-webview.form.js by scripts/build.mjs so that each
 * bundle's later file sits beside it under its own name.
 *
 * The half's modules import from outside the half one module only: its imports module,
 * src/components/hub-embed/form-half-imports.ts (Lit, the base class, define, the shared styles and texts,
 * HubError), which the type checker checks like any import. The main file's loader
 * (form-opener-loader.script.ts) puts an object typed as that module at the global `__hubEmbedFormImports`
 * before it adds the script, and reads the half's exports at `__hubEmbedFormHalf` when the script has
 * run (the loader's `FormChunkGlobals` names the same two).
 */
const FORM_CHUNK = 'hub-embed.form.js';
const FORM_IMPORTS = resolve('src/components/hub-embed/form-half-imports.ts');
/** The imports module as this build sees it: the imports module's names, taken from the global that the loader fills. */
const FORM_IMPORTS_IN_HALF = '\0hub-embed:form-half-imports';
/**
 * Only the form half builds form URLs: it has its own copy of that part of core/urls.ts and of the imports module
 * rules it checks short codes with. What they import from the rest of core (HubError: one class for both
 * halves) is the main file's; core cannot import the imports module, so here their imports of core resolve to it.
 */
const CORE = resolve('src/core') + sep;
const coreCopies = ['src/core/urls.ts', 'src/core/link-rules.ts', 'src/core/loopback.ts'].map((file) => resolve(file));
const formChunkModules = [
  'src/components/hub-embed/form-opener.ts',
  'src/components/hub-embed/form-preparer.ts',
  'src/components/hub-embed/form-opener.styles.ts',
  'src/components/hub-form-frame/hub-form-frame.ts',
  'src/components/hub-form-frame/hub-form-frame.styles.ts',
  'src/components/hub-form-frame/hub-form-frame.strings.ts',
].map((file) => resolve(file));

/**
 * Each import in the half resolves, by the bundler's own resolution, to a module of the half or to the
 * imports module; any other fails the build, naming it, instead of copying a second Lit into the half. In this
 * build the imports module is a module that exports the names the bundler reads from form-half-imports.ts, so a name
 * the half takes that the imports module lacks (which a core copy's import of core could do unseen by the type
 * checker) fails the build as a missing export, not when a user opens a form.
 */
const formHalfImports: Plugin = {
  name: 'hub-embed-form-half-imports',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!importer) return null;
    // The imports module itself is loaded only for its names (below): nothing it imports is bundled.
    if (importer === FORM_IMPORTS) return { id: source, external: true };
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    const id = resolved?.id;
    if (id && (formChunkModules.includes(id) || coreCopies.includes(id))) return resolved;
    if (id === FORM_IMPORTS || (coreCopies.includes(importer) && id?.startsWith(CORE))) return FORM_IMPORTS_IN_HALF;
    throw new Error(
      `The form half imports ${source} (from ${importer}), which is neither one of its modules (formChunkModules ` +
        'in vite.config.ts) nor its imports module: take what the main file has from form-half-imports.ts.',
    );
  },
  async load(id) {
    if (id !== FORM_IMPORTS_IN_HALF) return null;
    const { exports } = await this.load({ id: FORM_IMPORTS });
    return `export const { ${exports.join(', ')} } = globalThis.__hubEmbedFormImports;`;
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

/** In the <script> bundles, <hub-embed> loads its form half with the classic-script loader. */
const scriptFormLoader: Plugin = {
  name: 'hub-embed-script-form-loader',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (!importer || !source.endsWith('/form-opener-loader.js')) return null;
    return resolve(dirname(importer), source.replace(/\.js$/, '.script.ts'));
  },
};

/** The form chunk's file name beside `bundle` (the first file's name) and its integrity. */
function formChunkDefine(bundle: 'hub-embed' | 'hub-embed-webview') {
  const file = `dist/${FORM_CHUNK}`;
  if (!existsSync(file)) throw new Error(`${file} is missing: build it first (vite build --mode form-chunk).`);
  const integrity = `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
  return {
    __HUB_FORM_CHUNK_FILE__: JSON.stringify(`${bundle}.form.js`),
    __HUB_FORM_CHUNK_INTEGRITY__: JSON.stringify(integrity),
  };
}

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

/**
 * The WeChat add-on (src/webview/enable-wechat.ts, src/bridge/wechat.ts) as a classic script,
 * dist/hub-embed-wechat.js, which a page in a WeChat mini-program's <web-view> adds right after
 * dist/hub-embed-webview.iife.js. Like the form half, it imports from outside itself one module only, its
 * imports module (src/bridge/wechat-imports.ts: the bridge's transport registry and BridgeError). Here each of the imports module's
 * names is the one the WebView bundle puts on its HubEmbed global (src/script-tag-webview.ts exports them), so the add-on
 * plugs into that bundle's own bridge; any other import that leaves the add-on fails the build, naming it.
 */
const WECHAT_IMPORTS = resolve('src/bridge/wechat-imports.ts');
const WECHAT_IMPORTS_IN_ADDON = '\0hub-embed:wechat-imports';
const wechatModules = ['src/webview/enable-wechat.ts', 'src/bridge/wechat.ts'].map((file) => resolve(file));

const wechatImports: Plugin = {
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
        'in vite.config.ts) nor its imports module: take what it needs of the WebView bundle from src/bridge/wechat-imports.ts.',
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

const wechatBuild: UserConfig['build'] = {
  outDir: 'dist',
  emptyOutDir: false,
  target: 'es2022',
  minify: true,
  sourcemap: false,
  lib: { entry: wechatModules[0]!, name: '__hubEmbedWeChat', formats: ['iife'], fileName: () => 'hub-embed-wechat.js' },
};

// Browser project: real Chromium through playwright-core. Without one, skip loudly, or fail when
// HUB_REQUIRE_BROWSER=1 (CI) so a missing browser can never pass as green.
const chromium = findTestChromium();
if (!chromium) {
  if (process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(`HUB_REQUIRE_BROWSER=1: ${CHROMIUM_MISSING}`);
  console.warn(`\n!!! SKIPPING the browser test project: ${CHROMIUM_MISSING}\n`);
}

/**
 * The DOM tests, each in one engine in the fast gate and in the other in the `cross-engine` lane
 * (`npm run test:cross-engine`): the core and the bridge in happy-dom (the `unit` project: no layout, and
 * quick), the components in Chromium (the `browser` project, with the 127 tests that need real layout).
 */
const coreDomTests = ['test/core/**/*.test.ts', 'test/bridge/**/*.test.ts'];
const componentTests = ['test/components/**/*.test.ts'];
/** Slow checks of the package's shape, out of the fast gate: the `meta` project, `npm run test:meta`. */
const metaTests = [
  'test/package/react-native-types.test.ts',
  // Type-aware ESLint programs over src/, built by the tests themselves (the lint lane lints the code).
  'test/package/names.test.ts',
  'test/package/idiom-rules.test.ts',
];
/**
 * Node tests that start real processes and services (the CLI, Redis, PGlite, the examples' servers, Chromium
 * from Node): the `integration` project, `npm run test:integration`, a lane after the fast gate. The lane
 * runs two files at once (--maxWorkers=2, where Vitest's default on two cores is one): they mostly wait on
 * the processes they start. With the CLI tests on the built bin, the lane took 88 s alone here, against
 * 194 s one file at a time from the sources; beside CI's other work, 155 to 203 s.
 */
const integrationTests = [
  'test/mock/cli.test.ts',
  'test/mock/console-browser.test.ts',
  'test/mock/form-browser.test.ts',
  'test/package/chromium-flags.test.ts',
  'test/mock/node-server.test.ts',
  'test/mock/scale-bench.test.ts',
  'test/server/redis-token-cache.test.ts',
  'test/examples/express-app.test.ts',
  'test/examples/banners.test.ts',
  'test/examples/ledger.test.ts',
  // A real Postgres server and PGlite, two receiver instances each.
  'test/examples/deduct-instances.test.ts',
  // The grader against a backend that breaks each rule in turn, every one a server of its own.
  'test/mock/certify.test.ts',
];
/**
 * Node tests that need a fresh global scope: the `node` project shares one module graph between its files
 * (isolate: false, which cuts its CPU time from about 74 s to 29 s here), and a file before these may have
 * left a DOM shim (customElements) on globalThis. They run in the `node-fresh` project, in the fast gate too.
 */
const freshNodeTests = ['test/package/no-dom-imports.test.ts'];
/** The accessibility describes of test/components/accessible.ts, axe's and the focus rings': the `a11y` project runs them. */
const A11Y_TESTS = /\((axe|pixels)\) /;

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

/**
 * A form site that never answers, on the browser projects' own server: `/never-answers/…` holds every
 * request open until the browser lets go. A frame pointed at it stays loading for as long as a test
 * needs, where a site that is not there at all answers with an error page whose `load` can come before
 * a short timeout on a busy machine.
 */
const formSiteThatNeverAnswers: Plugin = {
  name: 'hub-embed-form-site-that-never-answers',
  configureServer(server) {
    server.middlewares.use('/never-answers/', (request, response) => {
      request.on('close', () => response.destroy());
    });
  },
};

/** What the two happy-dom projects (unit, happy-dom) share. */
const happyDomProject = () => ({
  environment: 'happy-dom' as const,
  setupFiles: ['test/setup-lit.ts', 'test/setup-happy-dom.ts', 'test/setup-fixtures.ts'],
  ...openWcTesting,
});

/** What the two Chromium projects (browser, pixels) share: a fresh copy each (Vitest writes into it). */
const browserProject = () => ({
  ...openWcTesting,
  setupFiles: ['test/setup-lit.ts', 'test/setup-fixtures.ts'],
  browser: {
    enabled: true,
    headless: true,
    screenshotFailures: false,
    provider: playwright({ launchOptions: { executablePath: chromium, args: PLAYWRIGHT_CHROMIUM_ARGS } }),
    instances: [{ browser: 'chromium' as const }],
  },
});

declare module 'vitest' {
  export interface ProvidedContext {
    /** True in the `a11y` project only: test/components/accessible.ts runs its axe and pixel checks there. */
    a11yLane?: boolean;
  }
}

export default defineConfig(({ mode }) => ({
  define: mode.startsWith('iife')
    ? { ...define, ...formChunkDefine(mode === 'iife' ? 'hub-embed' : 'hub-embed-webview') }
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
            : esBuild,
  plugins: mode.startsWith('iife')
    ? [scriptFormLoader, minifyTemplates, shortLitErrors, skipSecondCopy, asciiOnly]
    : mode === 'form-chunk'
      ? [formHalfImports, minifyTemplates, asciiOnly]
      : mode === 'wechat'
        ? [wechatImports, asciiOnly]
        : [],
  test: {
    reporters: ['default', './test/skipped-reporter.ts'],
    // Every test starts from the real globals and functions: no spy or stub outlives its test.
    restoreMocks: true,
    unstubGlobals: true,
    // A guard against a hung test, not a speed check: shared two-core machines run 5 s tests past 5 s.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The fast gate (`npm test`) runs the unit, node and browser projects; the others are lanes that
    // .ci/run runs after it, each alone with `npm run test:<lane>` (CONTRIBUTING.md lists them).
    projects: [
      {
        extends: true,
        // One happy-dom window for all its files: their tests hold no state between them, and a window
        // per file cost three times the CPU (40 s against 12 s here). The components' tests do hold state
        // (the form half loads once per page), so the lane's happy-dom project keeps a window per file.
        test: { name: 'unit', ...happyDomProject(), include: coreDomTests, isolate: false },
      },
      {
        // The cross-engine lane's half in happy-dom: the component tests.
        extends: true,
        test: { name: 'components-happy-dom', ...happyDomProject(), include: componentTests },
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
          exclude: [...metaTests, ...integrationTests, ...freshNodeTests],
          // One module graph for all its files (see freshNodeTests): every test restores its mocks and
          // globals (restoreMocks, unstubGlobals), and each server or simulator is a test's own.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'node-fresh', environment: 'node', setupFiles: ['test/setup-lit.ts'], include: freshNodeTests },
      },
      {
        // `npm run test:integration`: the node tests that start processes and services (slow to start).
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          setupFiles: ['test/setup-lit.ts'],
          include: integrationTests,
        },
      },
      {
        // `npm run test:meta`: checks of the package's shape that run the compiler on their own (slow).
        extends: true,
        test: { name: 'meta', environment: 'node', setupFiles: ['test/setup-lit.ts'], include: metaTests },
      },
      ...(chromium
        ? [
            {
              extends: true as const,
              plugins: [webTestRunnerSocket, formSiteThatNeverAnswers],
              test: {
                name: 'browser',
                ...browserProject(),
                // The framework bindings render with the real React and Vue: Chromium only.
                include: [...componentTests, 'test/bindings/**/*.test.ts'],
              },
            },
            {
              // The cross-engine lane's half in Chromium: the core and the bridge.
              extends: true as const,
              plugins: [webTestRunnerSocket],
              test: { name: 'core-chromium', ...browserProject(), include: coreDomTests },
            },
            {
              // `npm run test:a11y`: axe in every state and look, and each focusable part's focus ring read
              // back from a screenshot (test/components/accessible.ts), the slowest tests there are. The
              // browser project skips them; this one runs only them.
              extends: true as const,
              plugins: [webTestRunnerSocket, formSiteThatNeverAnswers],
              test: {
                name: 'a11y',
                ...browserProject(),
                // Where describeAccessible is called: the component tests.
                include: componentTests,
                provide: { a11yLane: true },
                testNamePattern: A11Y_TESTS,
              },
            },
          ]
        : []),
    ],
  },
}));

import { playwright } from '@vitest/browser-playwright';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { PLAYWRIGHT_CHROMIUM_ARGS, CHROMIUM_MISSING, findTestChromium } from './scripts/chromium.mjs';
import { define } from './vite.config.ts';

// The test projects; the builds are in vite.config.ts. The fast gate (`npm test`, scripts/fast-gate.mjs)
// runs the unit, node, node-fresh and browser projects; each other project is a lane that .ci/run runs
// after it with `npm run ci -- <lane>` (scripts/surface.mjs; CONTRIBUTING.md lists them).

// Browser project: real Chromium through playwright-core. Without one, skip loudly, or fail when
// HUB_REQUIRE_BROWSER=1 (CI) so a missing browser can never pass as green.
const chromium = findTestChromium();
if (!chromium) {
  if (process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(`HUB_REQUIRE_BROWSER=1: ${CHROMIUM_MISSING}`);
  console.warn(`\n!!! SKIPPING the browser test project: ${CHROMIUM_MISSING}\n`);
}

/**
 * The DOM tests, each in one engine in the fast gate and in the other in the `cross-engine` lane
 * (`npm run ci -- cross-engine`): the core and the bridge in happy-dom (the `unit` project: no layout, and
 * quick), the components in Chromium (the `browser` project, with the tests that need real layout).
 */
const coreDomTests = ['test/core/**/*.test.ts', 'test/bridge/**/*.test.ts'];
const componentTests = ['test/components/**/*.test.ts'];
/** Slow checks of the package's shape, out of the fast gate: the `meta` project, `npm run ci -- meta`. */
const metaTests = [
  'test/package/react-native-types.test.ts',
  // Type-aware ESLint programs over src/, built by the tests themselves (the lint lane lints the code).
  'test/package/names.test.ts',
  'test/package/idiom-rules.test.ts',
];
/**
 * Node tests that start real processes and services (the CLI, Redis, PGlite, the examples' servers, Chromium
 * from Node): the `integration` project, `npm run ci -- integration`, a lane after the fast gate. The lane
 * runs two files at once (--maxWorkers=2, where Vitest's default on two cores is one): they mostly wait on
 * the processes they start. The CLI tests run the built bin, which starts faster than the sources do.
 */
const integrationTests = [
  'test/mock/cli.test.ts',
  'test/mock/console-browser.test.ts',
  'test/mock/form-browser.test.ts',
  'test/package/chromium-flags.test.ts',
  'test/mock/node-server.test.ts',
  'test/mock/scale-bench.test.ts',
  'test/server/redis-token-cache.test.ts',
  // Every order store (memory, a real redis-server, PGlite) under one contract.
  'test/server/order-stores.test.ts',
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
 * (isolate: false, which cuts its CPU time by more than half), and a file before these may have
 * left a DOM shim (customElements) on globalThis. They run in the `node-fresh` project, in the fast gate too.
 */
const freshNodeTests = ['test/package/no-dom-imports.test.ts'];
/** The accessibility describes of test/components/accessible.ts, axe's and the focus rings': the `a11y` project runs them. */
const A11Y_TESTS = /\((axe|pixels)\) /;

/**
 * @open-wc/testing 4 is written for Web Test Runner. Under Vitest:
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

export default defineConfig({
  define,
  test: {
    reporters: ['default', './test/skipped-reporter.ts'],
    // Every test starts from the real globals and functions: no spy or stub outlives its test.
    restoreMocks: true,
    unstubGlobals: true,
    // A guard against a hung test, not a speed check: a shared machine runs a test well past its quiet time.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        // One happy-dom window for all its files: their tests hold no state between them, and a window
        // per file cost several times the CPU. The components' tests do hold state
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
            'test/first-view/**/*.test.ts',
            'test/mock/**/*.test.ts',
            'test/package/**/*.test.ts',
            'test/host/**/*.test.ts',
            'test/examples/*.test.ts',
            // The build's plugins' unit tests, beside them (build/<plugin>.test.ts).
            'build/**/*.test.ts',
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
        // `npm run ci -- integration`: the node tests that start processes and services (slow to start).
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          setupFiles: ['test/setup-lit.ts'],
          include: integrationTests,
        },
      },
      {
        // `npm run ci -- meta`: checks of the package's shape that run the compiler on their own (slow).
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
              // `npm run ci -- a11y`: axe in every state and look, and each focusable part's focus ring read
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
                // Vitest's types keep testNamePattern for the root config, yet a project's own applies to that
                // project alone (`npx vitest list --project a11y` lists only these tests): spread past the type.
                ...{ testNamePattern: A11Y_TESTS },
              },
            },
          ]
        : []),
    ],
  },
});

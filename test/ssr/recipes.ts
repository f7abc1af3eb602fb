// The ssr lane's apps (test/ssr/ssr.test.ts builds and drives them) and the majors they are made for, which
// docs/frameworks.md's headings name (test/ssr/frameworks-docs.test.ts): one list for both.

export interface AppRecipe {
  /** The app's folder in test/ssr/apps/ when it is not the app's own name: a previous major builds the same files. */
  files?: string;
  /** The stack as docs/frameworks.md names it, its release range after it in the heading of its section. */
  stack: string;
  /** The stack's own package and the releases the app is made for (a semver range): the lane checks what npm installed. */
  framework: readonly [name: string, range: string];
  /** What the app's user installs beside the tarball: the newest versions of the major that build and run together. */
  specs: readonly string[];
  /** The type check (where the build does none) and the production build, in order, as `.bin` commands. */
  build: readonly (readonly string[])[];
  /** The built server, started as deployed; it reads PORT and HOST. */
  start: readonly string[];
  /** Variables the deployment sets beside the service's. */
  startEnv?: Record<string, string>;
}

const REACT = ['react@19.3.1', 'react-dom@19.3.1', '@types/react@19.3.0', '@types/react-dom@19.3.0'];

/** React Router's packages of one release (the newest that `@react-router/dev` and `serve` have), with the app's others. */
const reactRouter = (version: string): string[] => [
  ...['react-router', '@react-router/node', '@react-router/serve', '@react-router/dev'].map(
    (name) => `${name}@${version}`,
  ),
  'isbot@5.2.3',
  ...REACT,
  '@lit/react@1.0.8',
  'vite@8.3.8',
  'typescript@5.9.3',
  '@types/node@20.19.43',
];

/**
 * The apps and how each is installed, built and started: each stack at today's major, and beside it the
 * previous major where its users are still many and its app differs: React Router 7 (it still takes releases,
 * and Remix's apps moved to it; the same files) and SvelteKit 2 (Kit 3 came out in October 2026 and moved the
 * configuration and the variables). Next.js 15, Astro 6, Angular 21 and Nuxt 4.4 are not built: their apps'
 * files are the ones the lane built with Next.js 16, Astro 5, Angular 21 and Nuxt 4.4 before, and each would
 * add its build (20 to 50 s here) to the lane. The apps run on CI's Node line (CI_NODE of
 * scripts/node-release.mjs, Node 24), which every stack's `engines` admits (Angular 22 takes Node 24.15 and
 * Nuxt 4.5 Node 24.11 on it).
 */
export const SSR_APPS = {
  next: {
    stack: 'Next.js',
    framework: ['next', '^16'],
    specs: ['next@16.4.6', ...REACT, '@lit/react@1.0.8', 'typescript@5.9.3', '@types/node@20.19.43'],
    // `next build` type-checks.
    build: [['next', 'build']],
    start: ['next', 'start', '-H', '127.0.0.1'],
  },
  nuxt: {
    stack: 'Nuxt',
    framework: ['nuxt', '^4.5'],
    // Vite 8.4 (the newest Nuxt's ^8.2 takes) stops Nuxt 4.5.2's build of an app with pages:
    // INVALID_EXTERNAL_ID for unctx, imported by nuxt/dist/pages/runtime/validate.js. 8.3.8 builds it.
    specs: ['nuxt@4.5.2', 'vue@3.5.45', 'vite@8.3.8'],
    build: [['nuxt', 'build']],
    start: ['.output/server/index.mjs'],
  },
  // Kit 3 takes TypeScript 6.
  sveltekit: {
    stack: 'SvelteKit',
    framework: ['@sveltejs/kit', '^3'],
    specs: [
      '@sveltejs/kit@3.2.0',
      '@sveltejs/adapter-node@6.0.1',
      '@sveltejs/vite-plugin-svelte@7.3.1',
      'svelte@5.57.3',
      'vite@8.3.8',
      'svelte-check@4.7.8',
      'typescript@6.0.3',
    ],
    build: [
      ['svelte-kit', 'sync'],
      ['svelte-check', '--tsconfig', './tsconfig.json', '--fail-on-warnings'],
      ['vite', 'build'],
    ],
    start: ['build/index.js'],
  },
  // Kit 2 as the lane built it before Kit 3: its own files (svelte.config.js, $env/dynamic/private).
  'sveltekit-2': {
    stack: 'SvelteKit',
    framework: ['@sveltejs/kit', '^2'],
    files: 'sveltekit-2',
    specs: [
      '@sveltejs/kit@2.70.4',
      '@sveltejs/adapter-node@5.5.7',
      '@sveltejs/vite-plugin-svelte@7.3.1',
      'svelte@5.57.3',
      'vite@8.3.8',
      'svelte-check@4.7.8',
      'typescript@5.9.3',
    ],
    build: [
      ['svelte-kit', 'sync'],
      ['svelte-check', '--tsconfig', './tsconfig.json', '--fail-on-warnings'],
      ['vite', 'build'],
    ],
    start: ['build/index.js'],
  },
  astro: {
    stack: 'Astro',
    framework: ['astro', '^7'],
    specs: ['astro@7.3.5', '@astrojs/node@11.1.6', '@astrojs/check@0.9.10', 'typescript@5.9.3', '@types/node@20.19.43'],
    build: [
      ['astro', 'check'],
      ['astro', 'build'],
    ],
    start: ['dist/server/entry.mjs'],
  },
  // 8.4.0: `@react-router/dev` and `serve` have no 8.5 release, and each takes react-router of its own release.
  'react-router': {
    stack: 'React Router',
    framework: ['react-router', '^8'],
    specs: reactRouter('8.4.0'),
    build: [['react-router', 'typegen'], ['tsc'], ['react-router', 'build']],
    start: ['react-router-serve', 'build/server/index.js'],
  },
  'react-router-7': {
    stack: 'React Router',
    framework: ['react-router', '^7'],
    files: 'react-router',
    specs: reactRouter('7.18.4'),
    build: [['react-router', 'typegen'], ['tsc'], ['react-router', 'build']],
    start: ['react-router-serve', 'build/server/index.js'],
  },
  // 22.2.0 is the newest release of every package this app takes; its compiler takes TypeScript 6.0. `ng
  // build` type-checks the templates too (strictTemplates).
  angular: {
    stack: 'Angular',
    framework: ['@angular/core', '^22'],
    specs: [
      ...['core', 'common', 'compiler', 'compiler-cli', 'platform-browser', 'platform-server', 'router']
        .concat(['ssr', 'build', 'cli'])
        .map((name) => `@angular/${name}@22.2.0`),
      'express@5.3.0',
      '@types/express@5.0.6',
      'rxjs@7.8.2',
      'tslib@2.8.1',
      'typescript@6.0.3',
      '@types/node@20.19.43',
    ],
    build: [['ng', 'build']],
    start: ['dist/app/server/server.mjs'],
    // Angular renders only for the hosts it is told of (and falls back to rendering in the browser).
    startEnv: { NG_ALLOWED_HOSTS: '127.0.0.1' },
  },
} as const satisfies Record<string, AppRecipe>;

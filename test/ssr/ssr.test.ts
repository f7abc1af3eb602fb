// Server-rendered apps (issue 59 item 1, issue 67 items 1 and 7): an app per stack, each made from its files
// in test/ssr/apps/ with the packed tarball installed, type-checked and built for production by the stack's
// own tools with no HUB_* variable in the environment (a build pipeline has no secrets), started as it would
// be deployed with them, and driven in Chromium against the simulator (served from the installed package):
// the cards show, no setup error and no console error, the page's `hub-ready` handler runs, a form opens.
// The apps live in the system's temporary folder (Turbopack refuses an app inside a node_modules folder,
// such as node_modules/.cache); npm's own cache keeps a second run's installs offline. `npm run ci -- ssr`
// packs first; with node:test.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_MISSING, PLAYWRIGHT_CHROMIUM_ARGS, findTestChromium } from '../../scripts/chromium.mjs';
import { SSR_APPS, type AppRecipe } from './recipes.js';
import { assertRan, INSTALL_FLAGS, ROOT, runAsync, tarball, tempApp, type Result } from '../shipped/apps.js';
import { freePort } from '../free-port.js';

type AppName = keyof typeof SSR_APPS;
const APP_NAMES = Object.keys(SSR_APPS) as AppName[];

/** npm's own range rules (the repository's semver, which ships no types), for the stacks' versions and engines. */
const semver = createRequire(join(ROOT, 'package.json'))('semver') as {
  satisfies(version: string, range: string): boolean;
};

const executablePath = findTestChromium();
if (!executablePath && process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(CHROMIUM_MISSING);

/** The service's variables, by any name an app reads them (Nuxt's runtime config too). */
const SERVICE_VARIABLE = /^(NUXT_(PUBLIC_)?)?HUB_/;

/** Installs and builds run without a HUB_* variable: a build pipeline has no runtime secrets. */
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_VARIABLE.test(name))),
  NEXT_TELEMETRY_DISABLED: '1',
  NUXT_TELEMETRY_DISABLED: '1',
  ASTRO_TELEMETRY_DISABLED: '1',
  NG_CLI_ANALYTICS: 'false',
  npm_config_update_notifier: 'false',
};

const runIn = (cwd: string, cmd: string, args: readonly string[]) => runAsync(cmd, args, cwd, ENV);

/** A fresh folder with the app's files from test/ssr/apps/. */
function appFolder(name: AppName): { dir: string; remove(): void } {
  const app = tempApp(`ssr-${name}`, name === 'next' ? {} : { type: 'module' });
  const recipe: AppRecipe = SSR_APPS[name];
  cpSync(join(ROOT, 'test/ssr/apps', recipe.files ?? name), app.dir, { recursive: true });
  return app;
}

/** A command of the app's own (a `.bin` name) or a file of it, run with this Node. */
const nodeArgs = ([first, ...rest]: readonly string[]): string[] => [
  first!.includes('/') ? first! : `node_modules/.bin/${first}`,
  ...rest,
];

/** The app's type check and build, one after the other, and how long install and build took. */
async function buildApp(name: AppName, dir: string): Promise<Result> {
  let out = '';
  for (const command of SSR_APPS[name].build) {
    const result = await runIn(dir, process.execPath, nodeArgs(command));
    out += `$ ${command.join(' ')}\n${result.out}`;
    if (result.status !== 0) return { status: result.status, out };
  }
  return { status: 0, out };
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the built app in its own process group, with the service's variables, and waits until its page answers. */
async function startApp(name: AppName, dir: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const recipe: AppRecipe = SSR_APPS[name];
  const args = nodeArgs(recipe.start);
  if (name === 'next') args.push('-p', String(port));
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...ENV, ...env, ...recipe.startEnv, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}/`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return { child, url, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stop(started: Started | undefined): Promise<void> {
  const child = started?.child;
  if (!child?.pid || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

interface Watched {
  page: Page;
  problems: string[];
}

async function watchedPage(browser: Browser): Promise<Watched> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

/** What every server-rendered page must show: the cards, and no setup error. */
async function expectCards(page: Page): Promise<void> {
  await page.locator('hub-embed [part~="card"]').first().waitFor();
  assert.equal(await page.locator('hub-embed [part="error"]').count(), 0, 'no error shown');
}

/** The page's own `hub-ready` handler ran: it writes the count into the page's status line. */
async function expectReadyHandled(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^[1-9]\d* matching tables ready\.$/ })
    .waitFor();
}

/** Opens the form of the steel-structure table from its card and waits for the form page inside. */
async function expectFormOpens(page: Page): Promise<void> {
  await page.locator('hub-embed [part="card"]', { hasText: '钢结构安装' }).click();
  await page.frameLocator('hub-embed hub-form-frame iframe').locator('form').first().waitFor();
}

/** Runs the tasks given to it at most `width` at a time, in the order given. */
function limiter(width: number): <R>(task: () => Promise<R>) => Promise<R> {
  let free = width;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else free++;
    }
  };
}

describe('server-rendered apps, built from the packed tarball', { skip: !executablePath && CHROMIUM_MISSING }, () => {
  const apps: { dir: string; remove(): void }[] = [];
  const dirs = {} as Record<AppName, string>;
  let simulator: { baseUrl: string; formUrl: string; apiKey: string; close(): Promise<void> };
  let browser: Browser;
  let env: Record<string, string>;
  /** Each app's install, then its build: a promise per app, so a test waits only for its own. */
  const built = {} as Record<AppName, Promise<Result & { seconds: { install: number; build: number } }>>;

  before(async () => {
    const { tarball: packed } = tarball();
    for (const name of APP_NAMES) {
      const app = appFolder(name);
      apps.push(app);
      dirs[name] = app.dir;
    }
    const seconds = (since: number): number => Math.round((performance.now() - since) / 1000);
    // Three installs at a time: they wait on the network and the disk more than on the CPU.
    const limit = limiter(3);
    const installs = APP_NAMES.map((name) =>
      limit(async () => {
        const since = performance.now();
        const result = await runIn(dirs[name], 'npm', ['install', ...INSTALL_FLAGS, packed, ...SSR_APPS[name].specs]);
        return { result, seconds: seconds(since) };
      }),
    );
    // One build after the other, each once its install is done: a build takes both cores while it compiles.
    let previous: Promise<unknown> = Promise.resolve();
    for (const [index, name] of APP_NAMES.entries()) {
      built[name] = Promise.all([installs[index]!, previous]).then(async ([install]) => {
        const none = { install: install.seconds, build: 0 };
        if (install.result.status !== 0)
          return { ...install.result, out: `npm install: ${install.result.out}`, seconds: none };
        const since = performance.now();
        const result = await buildApp(name, dirs[name]);
        return { ...result, seconds: { install: install.seconds, build: seconds(since) } };
      });
      previous = built[name].catch(() => undefined);
    }
    // The simulator as its package ships it: the workspace's hub-embed-mock, built.
    const mock = (await import(join(ROOT, 'packages/hub-embed-mock/dist/index.js'))) as {
      startSimulator(): Promise<typeof simulator>;
    };
    simulator = await mock.startSimulator();
    env = {
      HUB_BASE_URL: simulator.baseUrl,
      HUB_FORM_URL: simulator.formUrl,
      HUB_API_KEY: simulator.apiKey,
      NUXT_PUBLIC_HUB_BASE_URL: simulator.baseUrl,
      NUXT_PUBLIC_HUB_FORM_URL: simulator.formUrl,
      NUXT_HUB_API_KEY: simulator.apiKey,
    };
    browser = await chromium.launch({ executablePath, args: PLAYWRIGHT_CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await simulator?.close();
    // A build still running when a test failed ends before its folder goes.
    await Promise.allSettled(Object.values(built));
    for (const app of apps) app.remove();
  });

  /** Builds (already under way) and starts the app, gives `test` a watched page, and stops the app. */
  async function withApp(
    t: TestContext,
    name: AppName,
    test: (app: Started, watched: Watched) => Promise<void>,
  ): Promise<void> {
    const result = await built[name];
    t.diagnostic(`${name}: install ${result.seconds.install} s, type check and build ${result.seconds.build} s`);
    assertRan(result, `${name}'s build with no HUB_* variable`);
    const app = await startApp(name, dirs[name], env);
    const watched = await watchedPage(browser);
    try {
      await test(app, watched);
      assert.deepEqual(watched.problems, [], 'no console error or warning, no page error');
    } catch (error) {
      throw new Error(`${String(error)}\n${name}'s output:\n${app.output().slice(-4000)}`, { cause: error });
    } finally {
      await watched.page.close();
      await stop(app);
    }
  }

  it('each stack is installed at the release its app is made for, and the lane runs on a Node its engines admit', async () => {
    for (const name of APP_NAMES) {
      const result = await built[name];
      assertRan(result, `${name}'s install and build`);
      const [framework, range] = SSR_APPS[name].framework;
      const installed = JSON.parse(
        readFileSync(join(dirs[name], 'node_modules', framework, 'package.json'), 'utf8'),
      ) as {
        version: string;
        engines?: { node?: string };
      };
      assert.ok(semver.satisfies(installed.version, range), `${name}: ${framework} ${installed.version} is ${range}`);
      const engines = installed.engines?.node;
      if (engines)
        assert.ok(
          semver.satisfies(process.versions.node, engines),
          `${name}: ${framework} ${installed.version} takes Node ${engines}, the lane runs ${process.versions.node}`,
        );
    }
  });

  it('Next.js 16 App Router (next build, next start): <HubEmbed> in a client component shows the cards for its tags, runs onHubReady and opens a form, with no console error; a bare tag with HTML attributes shows the cards', async (t) => {
    await withApp(t, 'next', async (app, { page }) => {
      const html = await (await fetch(app.url)).text();
      assert.doesNotMatch(html, /<hub-embed/, 'the server renders no <hub-embed> to be upgraded before hydration');
      await page.goto(app.url);
      await expectCards(page);
      await expectReadyHandled(page);
      assert.equal(await page.locator('hub-embed hub-tag-filter [aria-pressed="true"]').first().innerText(), '建筑');
      await expectFormOpens(page);

      await page.goto(new URL('tag', app.url).href);
      await expectCards(page);
    });
  });

  it('Nuxt 4.5 (nuxt build, node .output/server): the README Vue line renders on the server, shows the cards for its tags, runs @hub-ready and opens a form, with no console error', async (t) => {
    await withApp(t, 'nuxt', async (app, { page }) => {
      const html = await (await fetch(app.url)).text();
      assert.match(html, /<hub-embed token-endpoint="\/api\/hub-token" base-url="http:\/\/127\.0\.0\.1:\d+"/);
      await page.goto(app.url);
      await expectCards(page);
      await expectReadyHandled(page);
      await expectFormOpens(page);
    });
  });

  /** The server's HTML holds the tag with the addresses it read at start-up, not at build. */
  async function expectServerTag(app: Started): Promise<void> {
    const html = await (await fetch(app.url)).text();
    assert.match(html, /<hub-embed [^>]*token-endpoint="\/api\/hub-token"/);
    assert.ok(html.includes(`base-url="${simulator.baseUrl}"`), `the server's HTML names ${simulator.baseUrl}`);
  }

  for (const [name, title] of [
    ['sveltekit', 'SvelteKit 3 (svelte-check, vite build with adapter-node, node build): the tag in a page'],
    [
      'sveltekit-2',
      'SvelteKit 2, the previous major, (svelte-check, vite build with adapter-node, node build): the tag in a page',
    ],
    [
      'astro',
      'Astro 7 (astro check, astro build with @astrojs/node, server output): the tag in a page with a client script',
    ],
    ['angular', 'Angular 22 (ng build with @angular/ssr, node dist/app/server/server.mjs): the tag in a component'],
  ] as const)
    it(`${title} renders on the server with the addresses it starts with, shows the cards, runs the page's hub-ready handler and opens a form through its token route, with no console error`, async (t) => {
      await withApp(t, name, async (app, { page }) => {
        await expectServerTag(app);
        await page.goto(app.url);
        await expectCards(page);
        await expectReadyHandled(page);
        await expectFormOpens(page);
      });
    });

  /**
   * The page at /first-view as the server sends it: the element with its filter and cards as declarative
   * shadow DOM before any script, and no token; then, in Chromium, the element takes that view over (no
   * view left, the cards its own, one hub-ready) and a card opens its form.
   */
  async function expectFirstView(app: Started, page: Page): Promise<void> {
    const url = new URL('first-view', app.url).href;
    const html = await (await fetch(url)).text();
    // The built markup's attribute values go unquoted where HTML allows (the build's template minifier).
    const element = html.indexOf('<hub-embed ');
    const view = html.search(/<template shadowrootmode="?open\b/);
    assert.ok(element !== -1 && view > element, `the view is inside the element: ${html.slice(0, 2000)}`);
    assert.match(html.slice(view), /^[^]*?part="?card\b/, 'with cards');
    assert.doesNotMatch(html, /access_token|eyJ[\w-]+\.eyJ/, 'and no token');
    // Painted before any script: with none run at all.
    const scriptless = await page.context().browser()!.newContext({ javaScriptEnabled: false });
    try {
      const bare = await scriptless.newPage();
      await bare.goto(url);
      assert.ok((await bare.locator('hub-embed [part~="card"]').count()) > 0, 'the cards paint with no script');
    } finally {
      await scriptless.close();
    }
    await page.addInitScript(() => {
      const counted = window as unknown as { readyCount: number };
      counted.readyCount = 0;
      document.addEventListener('hub-ready', () => counted.readyCount++, true);
    });
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { readyCount: number }).readyCount > 0);
    // Taken over: the parser attached the view as the element's shadow root (a registration that ran before
    // the element was parsed would leave its <template> inert in the light DOM), and the element removed it.
    assert.deepEqual(
      await page.evaluate(() => {
        const element = document.querySelector('hub-embed')!;
        return [!!element.querySelector(':scope > template'), !!element.shadowRoot!.querySelector('[data-first-view]')];
      }),
      [false, false],
      'the element took the view over',
    );
    await expectCards(page);
    await expectFormOpens(page);
    assert.equal(await page.evaluate(() => (window as unknown as { readyCount: number }).readyCount), 1);
  }

  for (const [name, title] of [
    ['next', 'Next.js 16 (a server component)'],
    ['nuxt', 'Nuxt 4.5 (a server route, and a component never hydrated)'],
    ['sveltekit', 'SvelteKit 3 (a load function and {@html})'],
    ['astro', 'Astro 7 (the frontmatter and set:html)'],
    ['react-router', 'React Router 8 (a loader and dangerouslySetInnerHTML)'],
    ['react-router-7', 'React Router 7 (the same files)'],
  ] as const)
    it(`${title}: renderFirstView's first view is in the server's HTML before any script, then the element takes it over and opens a form, with no console error`, async (t) => {
      await withApp(t, name, async (app, { page }) => expectFirstView(app, page));
    });

  it('SvelteKit 3, built with no HUB_* variable, stops at start when one is missing and names it (the check its env.ts declares)', async () => {
    assertRan(await built.sveltekit, "sveltekit's build with no HUB_* variable");
    const withoutKey = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'HUB_API_KEY'));
    // A server that starts anyway is stopped at once, and the test fails on its answer.
    const outcome = await startApp('sveltekit', dirs.sveltekit, withoutKey).then(
      (started) => stop(started).then(() => 'started without HUB_API_KEY'),
      (error: Error) => error.message,
    );
    assert.match(outcome, /^sveltekit exited with 1:[\s\S]*Set HUB_API_KEY in the server's environment/);
  });

  for (const [name, major] of [
    ['react-router', 'React Router 8'],
    ['react-router-7', 'React Router 7, the previous major,'],
  ] as const)
    it(`${major} framework mode (typegen and tsc, react-router build, react-router-serve): <HubEmbed> in a route module shows the cards, runs onHubReady and opens a form through its token action, with no console error`, async (t) => {
      await withApp(t, name, async (app, { page }) => {
        await page.goto(app.url);
        await expectCards(page);
        await expectReadyHandled(page);
        await expectFormOpens(page);
      });
    });
});

// Server-rendered apps (issue 59 item 1): a Next.js App Router app and a Nuxt app, each made from its files
// in test/ssr/apps/ with the packed tarball installed, built for production (`next build`, `nuxt build`),
// started as it would be deployed, and driven in Chromium against the simulator (served from the installed
// package): the cards show, no setup error and no console error, the `hub-ready` handler runs, a form opens.
// The apps live in the system's temporary folder (Turbopack refuses an app inside a node_modules folder,
// such as node_modules/.cache); npm's own cache keeps a second run's installs offline. `npm run test:ssr`
// packs first; with node:test.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_MISSING, PLAYWRIGHT_CHROMIUM_ARGS, findTestChromium } from '../../scripts/chromium.mjs';
import { INSTALL_FLAGS, ROOT, tarball, tempApp, type Result } from '../shipped/apps.js';
import { freePort } from '../server/redis-server.js';

/** The versions each app is built with: the newest that run on the Node this project supports. */
export const SSR_APPS = {
  next: [
    'next@16.4.6',
    'react@19.3.1',
    'react-dom@19.3.1',
    '@lit/react@1.0.8',
    'typescript@5.9.3',
    '@types/react@19.3.0',
    '@types/react-dom@19.3.0',
    '@types/node@20.19.43',
  ],
  // Nuxt pinned: its later releases' builds call `Set.prototype.difference`, which not every Node has.
  nuxt: ['nuxt@4.4.5', 'vue@3.5.45'],
} as const;
type AppName = keyof typeof SSR_APPS;

const executablePath = findTestChromium();
if (!executablePath && process.env.HUB_REQUIRE_BROWSER === '1') throw new Error(CHROMIUM_MISSING);

const ENV = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  NUXT_TELEMETRY_DISABLED: '1',
  npm_config_update_notifier: 'false',
};

/** Runs a command to its end without blocking the event loop; stdout and stderr together. */
function runIn(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...ENV, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', (error) => resolve({ status: null, out: `${cmd}: ${error.message}\n${out}` }));
    child.on('close', (status) => resolve({ status, out }));
  });
}

function ok(result: Result, what: string): void {
  assert.equal(result.status, 0, `${what} failed:\n${result.out.slice(-6000)}`);
}

/** A fresh folder with the app's files from test/ssr/apps/. */
function appFolder(name: AppName): { dir: string; remove(): void } {
  const app = tempApp(`ssr-${name}`, name === 'nuxt' ? { type: 'module' } : {});
  cpSync(join(ROOT, 'test/ssr/apps', name), app.dir, { recursive: true });
  return app;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the built app in its own process group and waits until its page answers. */
async function startApp(name: AppName, dir: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const [cmd, args] =
    name === 'next'
      ? [process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)]]
      : [process.execPath, ['.output/server/index.mjs']];
  const child = spawn(cmd, args, {
    cwd: dir,
    env: { ...ENV, ...env, PORT: String(port), HOST: '127.0.0.1' },
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

/** What every server-rendered page must show: the cards, no setup error, and (where set) its status. */
async function expectCards(page: Page): Promise<void> {
  await page.locator('hub-embed hub-table-card').first().waitFor();
  assert.equal(await page.locator('hub-embed [part="error"]').count(), 0, 'no error shown');
}

/** Opens the form of the steel-structure table from its card and waits for the form page inside. */
async function expectFormOpens(page: Page): Promise<void> {
  await page.locator('hub-embed hub-table-card', { hasText: '钢结构安装' }).locator('[part="card"]').click();
  await page.frameLocator('hub-embed hub-form-frame iframe').locator('form').first().waitFor();
}

describe('server-rendered apps, built from the packed tarball', { skip: !executablePath && CHROMIUM_MISSING }, () => {
  const apps: { dir: string; remove(): void }[] = [];
  const dirs = {} as Record<AppName, string>;
  let simulator: { baseUrl: string; formUrl: string; apiKey: string; close(): Promise<void> };
  let browser: Browser;
  let env: Record<string, string>;
  const built = {} as Record<AppName, Promise<Result>>;

  before(async () => {
    const { tarball: packed } = tarball();
    for (const name of Object.keys(SSR_APPS) as AppName[]) {
      const app = appFolder(name);
      apps.push(app);
      dirs[name] = app.dir;
    }
    // Both installs at once: they wait on the network and the disk more than on the CPU.
    const installs = await Promise.all(
      (Object.keys(SSR_APPS) as AppName[]).map((name) =>
        runIn(dirs[name], 'npm', ['install', ...INSTALL_FLAGS, packed, ...SSR_APPS[name]]),
      ),
    );
    installs.forEach((result, index) => ok(result, `npm install in the ${Object.keys(SSR_APPS)[index]} app`));
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
    // One build after the other: each takes both cores while it compiles.
    built.next = runIn(dirs.next, process.execPath, ['node_modules/next/dist/bin/next', 'build'], env);
    built.nuxt = built.next.then(() =>
      runIn(dirs.nuxt, process.execPath, ['node_modules/nuxt/bin/nuxt.mjs', 'build'], env),
    );
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
  async function withApp(name: AppName, test: (app: Started, watched: Watched) => Promise<void>): Promise<void> {
    ok(await built[name], `${name} build`);
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

  it('Next.js App Router (next build, next start): <HubEmbed> in a client component shows the cards for its tags, runs onHubReady and opens a form, with no console error; a bare tag with HTML attributes shows the cards', async () => {
    await withApp('next', async (app, { page }) => {
      const html = await (await fetch(app.url)).text();
      assert.doesNotMatch(html, /<hub-embed/, 'the server renders no <hub-embed> to be upgraded before hydration');
      await page.goto(app.url);
      await expectCards(page);
      await page
        .getByRole('status')
        .filter({ hasText: /^[1-9]\d* matching tables ready\.$/ })
        .waitFor();
      assert.equal(await page.locator('hub-embed hub-tag-filter [aria-pressed="true"]').first().innerText(), '建筑');
      await expectFormOpens(page);

      await page.goto(new URL('tag', app.url).href);
      await expectCards(page);
    });
  });

  it('Nuxt (nuxt build, node .output/server): the README Vue line renders on the server, shows the cards for its tags, runs @hub-ready and opens a form, with no console error', async () => {
    await withApp('nuxt', async (app, { page }) => {
      const html = await (await fetch(app.url)).text();
      assert.match(html, /<hub-embed token-endpoint="\/api\/hub-token" base-url="http:\/\/127\.0\.0\.1:\d+"/);
      await page.goto(app.url);
      await expectCards(page);
      await page
        .getByRole('status')
        .filter({ hasText: /^[1-9]\d* matching tables ready\.$/ })
        .waitFor();
      await expectFormOpens(page);
    });
  });
});

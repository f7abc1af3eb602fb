// The Hono example (examples/hono) on each runtime of test/runtimes (Node, Bun, Deno, workerd behind its
// edge stand-in), driven in Chromium against the simulator: signed in, the widget shows its cards through
// the token route, and a paid action's billing_deduct webhook reaches the app's ledger. On Node it is
// started with `npm run example:hono`, as a newcomer would; on the others by test/runtimes' launchers.
// HUB_RUNTIMES=bun,deno narrows the runtimes. Runs after `npm run build` and the runtimes lane's install of deno and workerd.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { readExampleFiles } from '../../../examples/hono/files.js';
import { startSimulator, type RunningSimulator } from '../../../packages/hub-embed-mock/src/index.js';
import { inEachEngine } from '../../e2e/engines/index.js';
import { watchPage } from '../../e2e/harness.js';
import { runtimeVersion, selectedRuntimes, startServer, type Runtime } from '../../runtimes/runtimes.js';
import { freePort } from '../../free-port.js';

interface Running {
  /** The app's origin, as the browser reaches it. */
  origin: string;
  /** The simulator the app talks to. */
  serviceUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `npm run example:hono`, in its own process group, until it prints its addresses. */
function startWithNpm(): Promise<Running> {
  const child = spawn('npm', ['run', '--silent', 'example:hono'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      process.kill(-child.pid!, 'SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Hono example: +(http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
      const serviceUrl = /service API: +(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url && serviceUrl) resolve({ origin: url, serviceUrl, output: () => output, stop });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm run example:hono exited with ${code}:\n${output}`)));
  });
}

/** The app on Bun, Deno or workerd through test/runtimes' launchers, its webhooks pointed at it in the simulator. */
async function startOn(runtime: Exclude<Runtime, 'node'>, hub: RunningSimulator): Promise<Running> {
  const port = await freePort();
  const settings = { HUB_API_KEY: hub.apiKey, HUB_BASE_URL: hub.baseUrl, HUB_FORM_URL: hub.formUrl };
  const server =
    runtime === 'workerd'
      ? await startServer(runtime, {
          entry: 'examples/hono/worker.js',
          env: {},
          // The edge stand-in sets CF-Connecting-IP to the simulator's loopback address.
          bindings: { ...settings, APP_ORIGIN: `http://127.0.0.1:${port}`, HUB_WEBHOOK_IPS: '127.0.0.1,::1' },
          textModules: { 'example-files': JSON.stringify(readExampleFiles()) },
          edgePort: port,
        })
      : await startServer(runtime, {
          entry: 'examples/hono/main.js',
          env: { ...settings, PORT: String(port), HUB_WEBHOOK_IPS: '127.0.0.1,::1' },
        });
  const origin = new URL(server.url).origin;
  const configured = await fetch(`${hub.baseUrl}/console/webhooks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      configs: [{ billing_url: `${origin}/hooks/hub`, notification_url: `${origin}/hooks/hub` }],
    }),
  });
  assert.equal(configured.status, 200, await configured.text());
  return { origin, serviceUrl: hub.baseUrl, output: server.output, stop: () => server.stop() };
}

inEachEngine(
  () =>
    describe('the Hono example on each runtime', () => {
      let hub: RunningSimulator;
      before(async () => {
        hub = await startSimulator({ apiPort: 0, formPort: 0 });
      });
      after(() => hub?.close());

      for (const runtime of selectedRuntimes()) {
        it(`on ${runtime}: signed in, the widget shows cards through the token route, and a payment's billing_deduct webhook reaches the ledger`, async () => {
          const version = runtimeVersion(runtime);
          const app = runtime === 'node' ? await startWithNpm() : await startOn(runtime, hub);
          const watch = await watchPage();
          const page = watch.page;
          try {
            await page.goto(`${app.origin}/`);
            await page.getByRole('button', { name: /^Alice/ }).click();
            await page
              .getByRole('status')
              .filter({ hasText: /\d+ matching tables ready\./ })
              .waitFor();
            assert.ok((await page.locator('hub-embed [part~="card"]').count()) > 0, 'the widget shows cards');

            // The token route answers the signed-in page's origin with a token for the session's user.
            const cookie = (await page.driver.cookies(`${app.origin}/`)).map((c) => `${c.name}=${c.value}`).join('; ');
            const token = await fetch(`${app.origin}/api/hub-token`, {
              method: 'POST',
              headers: { origin: app.origin, cookie },
            });
            assert.equal(token.status, 200, await token.clone().text());
            assert.equal(typeof ((await token.json()) as { access_token?: unknown }).access_token, 'string');

            // Pay for the steel-structure table (¥5.00): the simulator's billing_deduct must be accepted.
            await page.locator('hub-embed [part="card"]', { hasText: '钢结构安装' }).click();
            await page
              .frameLocator('hub-embed hub-form-frame iframe')
              .locator('form[data-action="charge"] button')
              .click();
            await page.getByRole('status').filter({ hasText: /Paid/ }).waitFor();
            const points = (await (await fetch(`${app.origin}/api/points`, { headers: { cookie } })).json()) as {
              ledger: { balanceCents: number; entries: { kind: string; changeCents: number }[] };
            };
            assert.equal(points.ledger.balanceCents, 1500, `Alice's ¥20.00 less ¥5.00 on ${runtime} ${version}`);
            assert.deepEqual(
              points.ledger.entries.map(({ kind, changeCents }) => [kind, changeCents]),
              [
                ['deduct', -500],
                ['opening', 2000],
              ],
            );
            assert.deepEqual(
              [...watch.pageErrors, ...watch.consoleErrors],
              [],
              'no script or console errors on the page',
            );
            assert.deepEqual(watch.leaks, [], 'no browser request carried X-API-Key or called /apikeys/token');
          } catch (error) {
            throw new Error(`${(error as Error).message}\n--- the app's output on ${runtime}:\n${app.output()}`, {
              cause: error,
            });
          } finally {
            await watch.close();
            await app.stop();
          }
        });
      }
    }),
  { only: ['chromium'], why: 'what differs here is the server runtime, not the browser' },
);

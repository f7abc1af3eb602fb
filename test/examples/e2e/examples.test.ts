// Each example, started with its own npm command as a newcomer would, driven in Chromium, WebKit and
// Firefox (test/e2e/engines/) against the
// simulator: sign in, hub-ready, open a form, pay, and see the charge in the Express example's ledger
// on the points page. Runs after `npm run build` (.ci/run), with node:test.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { inEachEngine, type EnginePage as Page } from '../../e2e/engines/index.js';
import { watchPage } from '../../e2e/harness.js';

interface Started {
  child: ChildProcess;
  url: string;
  serviceUrl: string;
  output: () => string;
}

/** Runs `npm run <script>` in its own process group and waits for the addresses it prints. */
function start(script: string): Promise<Started> {
  const child = spawn('npm', ['run', '--silent', script], {
    env: { ...process.env, PORT: '0', VITE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /example: +(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      const serviceUrl = /service API: +(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url && serviceUrl) resolve({ child, url, serviceUrl, output: () => output });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm run ${script} exited with ${code}:\n${output}`)));
  });
}

function stop(started: Started | undefined): Promise<void> {
  const child = started?.child;
  if (!child?.pid || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM'); // the npm process and the node it started
  });
}

/** Signs in as Alice, waits for hub-ready, opens the steel-structure table (¥5.00) and pays in the form. */
async function payAsAlice(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: /^Alice/ }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /\d+ matching tables ready\./ })
    .waitFor();
  await page.locator('hub-embed [part="card"]', { hasText: '钢结构安装' }).click();
  const form = page.frameLocator('hub-embed hub-form-frame iframe');
  await form.locator('form[data-action="charge"] button').click();
  // The page's status says how the charge ended: paid, declined (with the reason) or an error. Waiting
  // for any of them, a failure shows which, instead of a timeout that hides it. A payment is the longest
  // chain of the suite (the form page, the service, its billing_deduct webhook to the example, the ledger's
  // write and the answer back): on a machine shared by lanes it can take longer than one step's wait.
  const status = page.getByRole('status').filter({ hasText: /^(Paid|The payment was declined|Error)/ });
  await status.waitFor({ timeoutMs: 45_000 });
  assert.match(await status.innerText(), /^Paid/);
}

/** The points page's ledger rows, as text. */
async function ledgerRows(page: Page, pointsUrl: string): Promise<string[]> {
  await page.goto(pointsUrl);
  await page.locator('body[data-loaded="true"]').waitFor();
  return page.locator('#ledger-entries tr').allInnerTexts();
}

/** The ledger's first row once payAsAlice has paid: the ¥5.00 charge, out of Alice's ¥20.00 welcome credit. */
const ALICE_PAID = /deduct\s+-¥5\.00\s+¥15\.00\s+Paid action on 钢结构安装/;

inEachEngine(() =>
  describe('the examples, each started with its npm command', () => {
    /**
     * Starts `npm run <script>` and gives `test` a fresh page of the browser whose problems are recorded;
     * the page closes and the example stops whatever the test did.
     */
    async function withExample(
      script: string,
      test: (app: Started, page: Page, problems: () => string[]) => Promise<void>,
    ): Promise<void> {
      const app = await start(script);
      // A fresh context of the engine; the problems it reports are script errors and console errors.
      const watch = await watchPage();
      const page = watch.page;
      const problems = () => [
        ...watch.pageErrors.map((text) => `pageerror: ${text}`),
        ...watch.consoleErrors.map((text) => `console: ${text}`),
      ];
      try {
        await test(app, page, problems);
        assert.deepEqual(watch.leaks, [], 'no browser request carried X-API-Key or called /apikeys/token');
      } finally {
        await watch.close();
        await stop(app);
      }
    }

    it('npm run example:express: a paid action reaches the ledger, the points page shows it, a refund is recorded once, and the token endpoint trusts only the session and its origins', async () => {
      await withExample('example:express', async (app, page, problems) => {
        await payAsAlice(page, app.url);
        const rows = await ledgerRows(page, new URL('/points', app.url).href);
        assert.match(rows[0] ?? '', ALICE_PAID);
        assert.equal(await page.locator('#ledger-balance').innerText(), '¥15.00');

        // The service's administrator refunds the charge: billing_refund reaches the app once.
        const logs = (await (
          await fetch(`${app.serviceUrl}/api/v1/hub/points/users/logs?client_user_id=user-alice`, {
            headers: { 'X-API-Key': 'sk-mock-active-0123456789abcdef' },
          })
        ).json()) as { data: { list: { id: number; record_type: string }[] } };
        const charge = logs.data.list.find((record) => record.record_type === 'deduct');
        assert.ok(charge, 'the service logged the charge');
        const refund = await fetch(`${app.serviceUrl}/console/refunds`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_user_id: 'user-alice', log_id: charge.id }),
        });
        assert.equal(refund.status, 200, await refund.text());
        const afterRefund = await ledgerRows(page, new URL('/points', app.url).href);
        assert.equal(afterRefund.filter((row) => /refund/.test(row)).length, 1);
        assert.equal(await page.locator('#ledger-balance').innerText(), '¥20.00');
        assert.deepEqual(problems(), []);

        // The token endpoint takes the user from the session only: a body naming a user is no session.
        const origin = new URL(app.url).origin;
        const named = await fetch(`${origin}/api/hub-token`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json' },
          body: JSON.stringify({ client_user_id: 'user-alice' }),
        });
        assert.equal(named.status, 401);
        // allowedOrigins: a page of another origin gets 403, even with a session cookie.
        const cookie = (await page.driver.cookies(app.url)).map((c) => `${c.name}=${c.value}`).join('; ');
        const foreign = await fetch(`${origin}/api/hub-token`, {
          method: 'POST',
          headers: { origin: 'https://evil.example', cookie },
        });
        assert.equal(foreign.status, 403);
        const own = await fetch(`${origin}/api/hub-token`, { method: 'POST', headers: { origin, cookie } });
        assert.equal(own.status, 200);
      });
    });

    for (const framework of ['react', 'vue']) {
      it(`npm run example:${framework}: the widget in ${framework} pays through the Express example's ledger`, async () => {
        await withExample(`example:${framework}`, async (app, page, problems) => {
          await payAsAlice(page, app.url);
          const rows = await ledgerRows(page, new URL('/points', app.url).href);
          assert.match(rows[0] ?? '', ALICE_PAID);
          assert.deepEqual(problems(), []);
        });
      });
    }
  }),
);

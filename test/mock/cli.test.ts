import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import { NOTIFICATION_EVENTS } from '../../src/server/webhook-events.js';
import { rawRequest } from './raw-http.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/**
 * The bin as it ships, hub-embed-mock's (packages/hub-embed-mock/bin/hub-embed-mock.js): `npm run ci -- integration` builds
 * first. It starts in a third of the time the sources take through scripts/ts-register.mjs.
 */
const BIN = join(ROOT, 'packages/hub-embed-mock/bin/hub-embed-mock.js');
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` (npm run ci -- integration does)`);
});

function spawnCli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

function run(args: string[]) {
  const child = spawnCli(args);
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const rl = createInterface({ input: child.stdout! });
  const first = new Promise<string>((resolve, reject) => {
    rl.on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing: ${stderr}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, first, lines, exit, stderr: () => stderr };
}

describe('hub-embed-mock CLI', () => {
  it('starts, prints one JSON line first, serves the default seed, logs requests and stops on SIGTERM', async () => {
    const p = run(['--api-port', '0', '--form-port', '0']);
    const info = JSON.parse(await p.first);
    expect(Object.keys(info).sort()).toEqual(['apiKey', 'apiUrl', 'baseUrl', 'consoleUrl', 'formUrl', 'outboundIps']);
    expect(info.apiUrl).toBe(`${info.baseUrl}/api/v1/hub`);
    expect(info.outboundIps).toEqual(['127.0.0.1']);
    expect(info.consoleUrl).toBe(`${info.baseUrl}/console/`);
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tok = await fetch(`${info.baseUrl}/api/v1/hub/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': info.apiKey, 'Content-Type': 'application/json' },
      body: '{"client_user_id":"user-alice"}',
    });
    const token = (await tok.json()).data.access_token;
    const list = await fetch(`${info.baseUrl}/api/v1/hub/projects/published-list`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await list.json()).data.list).toHaveLength(defaultSeed.tables.filter((t) => t.published).length);
    await new Promise((r) => setTimeout(r, 100));
    expect(p.lines.some((l) => l.includes('POST /api/v1/hub/apikeys/token 200 auth=api-key user=user-alice'))).toBe(
      true,
    );
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  }, 20_000);

  it('--allowed-host adds a Host the simulator answers; --log-limit bounds its logs; it stops cleanly on SIGINT too', async () => {
    const p = run(['--api-port', '0', '--form-port', '0', '--quiet', '--allowed-host', 'sim.test', '--log-limit', '3']);
    const info = JSON.parse(await p.first);
    expect((await rawRequest(info.baseUrl, 'GET /console/state HTTP/1.1\nHost: sim.test')).status).toBe(200);
    expect((await rawRequest(info.baseUrl, 'GET /console/state HTTP/1.1\nHost: other.test')).status).toBe(403);
    for (let i = 0; i < 4; i++) await fetch(`${info.baseUrl}/n${i}`);
    const log = await (await fetch(`${info.baseUrl}/console/requests`)).json();
    expect(log.data.list.map((e: { path: string }) => e.path)).toEqual(['/n1', '/n2', '/n3']);
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
  }, 20_000);

  it('--api-prefix /api/v1/apihub serves the open API there only, and the JSON line and banner say where', async () => {
    const p = run(['--api-port', '0', '--form-port', '0', '--api-prefix', '/api/v1/apihub']);
    const info = JSON.parse(await p.first);
    expect(info.apiUrl).toBe(`${info.baseUrl}/api/v1/apihub`);
    expect(info.consoleUrl).toBe(`${info.baseUrl}/console/`);
    await waitFor(() => p.lines.length >= 2);
    expect(p.lines[1]).toBe(`API root: ${info.apiUrl}   (base-url / baseUrl / HUB_BASE_URL)`);
    const exchange = (root: string) =>
      fetch(`${root}/apikeys/token`, {
        method: 'POST',
        headers: { 'X-API-Key': info.apiKey, 'Content-Type': 'application/json' },
        body: '{"client_user_id":"user-alice"}',
      });
    const tok = await exchange(info.apiUrl);
    expect(tok.status).toBe(200);
    const token = (await tok.json()).data.access_token;
    const list = await fetch(`${info.apiUrl}/projects/published-list`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    const wrong = await exchange(`${info.baseUrl}/api/v1/hub`);
    expect(wrong.status).toBe(404);
    expect((await wrong.json()).message).toContain('The open API is under /api/v1/apihub/.');
    await waitFor(() => p.lines.some((l) => l.includes('POST /api/v1/apihub/apikeys/token 200 auth=api-key')));
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  }, 20_000);

  it('--seed loads a seed file; --token-ttl sets expires_in; --no-console removes the console', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-mock-'));
    const seed = {
      accounts: [{ id: 7, name: 'D', role: 'developer', pool_cents: 5, keys: [{ key: 'sk-file', status: 'active' }] }],
      tables: [],
    };
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
    const p = run([
      '--api-port',
      '0',
      '--form-port',
      '0',
      '--seed',
      join(dir, 'seed.json'),
      '--token-ttl',
      '60',
      '--no-console',
    ]);
    const info = JSON.parse(await p.first);
    expect(info.apiKey).toBe('sk-file');
    const tok = await fetch(`${info.baseUrl}/api/v1/hub/apikeys/token`, {
      method: 'POST',
      headers: { 'X-API-Key': 'sk-file', 'Content-Type': 'application/json' },
      body: '{"client_user_id":"x"}',
    });
    expect((await tok.json()).data.expires_in).toBe(60);
    expect((await fetch(`${info.baseUrl}/console/state`)).status).toBe(404);
    p.child.kill('SIGTERM');
    await p.exit;
  }, 20_000);

  it('--profile plays a service the spec allows: names repeat, later ones winning', async () => {
    const p = run([
      '--api-port',
      '0',
      '--form-port',
      '0',
      '--quiet',
      '--profile',
      'oldest-first',
      '--profile',
      'gateway-404-page-2',
    ]);
    const info = JSON.parse(await p.first);
    const headers = { 'X-API-Key': info.apiKey, 'Content-Type': 'application/json' };
    for (const cents of [1, 2])
      await fetch(`${info.apiUrl}/points/users/recharge`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ client_user_id: 'u1', amount_cents: cents }),
      });
    const logs = (page: number) =>
      fetch(`${info.apiUrl}/points/users/logs?client_user_id=u1&page=${page}`, { headers });
    const first = await (await logs(1)).json();
    expect(first.data.list.map((record: { amount_cents: number }) => record.amount_cents)).toEqual([1, 2]);
    const second = await logs(2);
    expect(second.status).toBe(404);
    expect(await second.text()).toContain('<html>');
    p.child.kill('SIGTERM');
    expect(await p.exit, p.stderr()).toBe(0);
  }, 20_000);

  it('bad flags and bad seed files exit with status 2 and a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-mock-'));
    writeFileSync(join(dir, 'bad.json'), '{"accounts": 1}');
    for (const args of [
      ['--fault-rate', '2'],
      ['--api-port', 'x'],
      ['--bogus'],
      ['--allowed-host', 'http://sim.test'],
      ['--log-limit', '0'],
      ['--api-prefix', '/api/v1'],
      ['--api-prefix', 'api/v1/apihub'],
      ['--api-prefix', '/api/v1/apihub/'],
      ['--api-prefix', '/api/vx/hub'],
      ['--api-prefix', '/api/v1/..'],
      ['--api-prefix', '/api/v1/a%2Fb'],
      ['--seed', join(dir, 'missing.json')],
      ['--seed', join(dir, 'bad.json')],
      ['--profile', 'no-such-service'],
    ]) {
      const p = run(args);
      p.first.catch(() => {});
      expect(await p.exit, args.join(' ')).toBe(2);
      expect(p.stderr(), args.join(' ')).toMatch(/hub-embed-mock: .+/);
    }
  }, 30_000);

  it('the shipped bin starts with a node shebang, so npx and npm scripts run it directly', () => {
    expect(readFileSync(BIN, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('the banner after the JSON line names the API root, the console and the outbound IPs to allow', async () => {
    const p = run(['--api-port', '0', '--form-port', '0']);
    await p.first;
    await waitFor(() => p.lines.length >= 4);
    expect(p.lines[1]).toMatch(/^API root: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/hub +\(base-url/);
    expect(p.lines[2]).toMatch(/^Console: +http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    expect(p.lines[3]).toContain('sent from 127.0.0.1');
    p.child.kill('SIGTERM');
    await p.exit;
  }, 20_000);

  it('--host beyond loopback warns loudly on stderr; --allow-remote-clients is taken and the warning says so', async () => {
    for (const [extra, says] of [
      [[], /others get 403/],
      [['--allow-remote-clients'], /ANY MACHINE THAT CAN REACH IT/],
    ] as const) {
      const p = run(['--host', '0.0.0.0', '--api-port', '0', '--form-port', '0', '--quiet', ...extra]);
      const info = JSON.parse(await p.first);
      expect(info.baseUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      await waitFor(() => p.stderr().includes('!'.repeat(72)));
      expect(p.stderr()).toMatch(/WARNING: the simulator listens on 0\.0\.0\.0, beyond loopback/);
      expect(p.stderr()).toMatch(says);
      p.child.kill('SIGTERM');
      expect(await p.exit).toBe(0);
    }
    const quiet = run(['--api-port', '0', '--form-port', '0', '--quiet']);
    await quiet.first;
    quiet.child.kill('SIGTERM');
    await quiet.exit;
    expect(quiet.stderr()).toBe('');
  }, 30_000);

  it('--print-seed prints the built-in seed, which --seed accepts as it is', async () => {
    const printed = await runToEnd(['--print-seed']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(JSON.stringify(defaultSeed)));
    const dir = mkdtempSync(join(tmpdir(), 'hub-mock-'));
    writeFileSync(join(dir, 'seed.json'), printed.stdout);
    const p = run(['--api-port', '0', '--form-port', '0', '--quiet', '--seed', join(dir, 'seed.json')]);
    expect(JSON.parse(await p.first).apiKey).toBe(defaultSeed.accounts[0]!.keys![0]!.key);
    p.child.kill('SIGTERM');
    await p.exit;
  }, 20_000);

  it('--webhook-url sets both callback URLs (kept by reset); a bad URL exits 2', async () => {
    const printed = await runToEnd(['--print-seed', '--webhook-url', 'http://127.0.0.1:9/hook']);
    expect(JSON.parse(printed.stdout).accounts[0].webhooks).toEqual([
      { notification_url: 'http://127.0.0.1:9/hook', billing_url: 'http://127.0.0.1:9/hook' },
    ]);
    for (const bad of ['javascript:alert(1)', 'not a url', '/relative']) {
      const r = await runToEnd(['--webhook-url', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--webhook-url must be an absolute http(s) URL');
    }
  }, 20_000);

  it('trigger sends each of the nine events into a local receiver and prints each delivery', async () => {
    const rx = await startReceiver((event) => (event === 'billing_deduct' ? '{"ok":true}' : '{}'));
    const p = run(['--api-port', '0', '--form-port', '0', '--quiet', '--webhook-url', rx.url]);
    const { baseUrl } = JSON.parse(await p.first);
    const events = [...NOTIFICATION_EVENTS, 'billing_deduct', 'billing_refund'];
    for (const event of events) {
      const r = await runToEnd(['trigger', event, '--url', baseUrl]);
      expect(r.code, `${event}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^delivery \\d+ ${event} -> ${rx.url} delivered 200`));
    }
    expect(rx.seen.map((s) => s.body.event)).toEqual(events);
    expect(rx.seen.every((s) => s.headers['x-webhook-event'] === s.body.event)).toBe(true);
    p.child.kill('SIGTERM');
    await p.exit;
    await rx.close();
  }, 60_000);

  it('trigger billing_deduct with chosen fields prints what the answer decided and the log record', async () => {
    let answer = '{"ok":true}';
    const rx = await startReceiver(() => answer);
    const p = run(['--api-port', '0', '--form-port', '0', '--quiet', '--webhook-url', rx.url]);
    const { baseUrl, apiKey } = JSON.parse(await p.first);
    const args = [
      '--user',
      'user-bob',
      '--short-code',
      'Pf2k9d',
      '--amount',
      '2.50',
      '--set',
      'billing.reason=CLI test',
      '--set',
      'extra={"n":1}',
    ];
    const ok = await runToEnd(['trigger', 'billing_deduct', ...args, '--url', baseUrl]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/ok=true/);
    expect(ok.stdout).toMatch(/^charged: points log record \d+ \(deduct, change 0, balance 0\)/m);
    expect(rx.seen[0]!.body).toMatchObject({
      short_code: 'Pf2k9d',
      target: { client_user_id: 'user-bob' },
      billing: { amount: '2.50', reason: 'CLI test' },
      extra: { n: 1 },
    });
    answer = '{"ok":false}';
    const declined = await runToEnd(['trigger', 'billing_deduct', ...args, '--url', baseUrl]);
    expect(declined.stdout).toMatch(/^failed: points log record \d+ \(failed, change 0/m);
    const logs = await fetch(`${baseUrl}/api/v1/hub/points/users/logs?client_user_id=user-bob`, {
      headers: { 'X-API-Key': apiKey },
    });
    expect((await logs.json()).data.list.map((r: { record_type: string }) => r.record_type)).toEqual([
      'failed',
      'deduct',
    ]);
    const bad = await runToEnd(['trigger', 'billing_deduct', '--amount', '1.5', '--url', baseUrl]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('HTTP 400: amount must be yuan with two decimals');
    p.child.kill('SIGTERM');
    await p.exit;
    await rx.close();
  }, 30_000);

  it('resend, clock and reset drive a running simulator', async () => {
    const rx = await startReceiver(() => '{}');
    const p = run(['--api-port', '0', '--form-port', '0', '--quiet', '--webhook-url', rx.url, '--token-ttl', '60']);
    const { baseUrl, apiUrl, apiKey } = JSON.parse(await p.first);
    const first = await runToEnd(['trigger', 'order_matched', '--url', baseUrl]);
    const id = /^delivery (\d+)/.exec(first.stdout)![1]!;
    const again = await runToEnd(['resend', id, '--url', baseUrl]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`order_matched -> .* delivered 200 .*\\(resend of ${id}\\)`));
    expect(rx.seen[1]!.body).toEqual(rx.seen[0]!.body);
    expect((await runToEnd(['resend', '999', '--url', baseUrl])).code).toBe(1);

    const token = await tokenOver(baseUrl, apiKey);
    const clock = await runToEnd(['clock', '+10m', '--url', baseUrl]);
    expect(clock.stdout).toMatch(/^simulator time \d{4}-/);
    const tags = await fetch(`${baseUrl}/api/v1/hub/projects/published-tags`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(tags.status).toBe(401);

    await fetch(`${baseUrl}/console/pool/top-up`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"yuan":5}',
    });
    // --url takes the API root too, as the JSON line prints it.
    const reset = await runToEnd(['reset', '--url', `${apiUrl}/`]);
    expect(reset).toMatchObject({ code: 0, stdout: 'reset to the seed\n' });
    const points = await (await fetch(`${baseUrl}/console/points`)).json();
    expect(points.data.pool_cents).toBe(defaultSeed.accounts[0]!.pool_cents);
    const hooks = await (await fetch(`${baseUrl}/console/webhooks`)).json();
    expect(hooks.data.configs).toEqual([{ notification_url: rx.url, billing_url: rx.url }]);
    p.child.kill('SIGTERM');
    await p.exit;
    await rx.close();
  }, 30_000);

  it('commands with bad arguments exit 2; an unreachable simulator exits 1 with a hint', async () => {
    for (const args of [
      ['clock', '10 minutes'],
      ['resend', 'x'],
      ['resend'],
      ['trigger'],
      ['trigger', 'order_matched', '--set', 'novalue'],
      ['reset', 'extra'],
      ['trigger', 'x', '--bogus'],
    ]) {
      const r = await runToEnd(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^hub-embed-mock: /);
    }
    const r = await runToEnd(['reset', '--url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot reach the simulator at http://127.0.0.1:1');
  }, 30_000);
});

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const tick = () => (check() ? resolve() : setTimeout(tick, 20));
    tick();
  });
}

/** Runs the CLI to its end and collects its output. */
function runToEnd(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A webhook receiver on 127.0.0.1 (port 0) that records each request and answers 200 with `answer(event)`. */
async function startReceiver(answer: (event: string) => string) {
  const seen: { headers: IncomingHttpHeaders; body: any }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text);
      seen.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer(body.event));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function tokenOver(baseUrl: string, apiKey: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/hub/apikeys/token`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: '{"client_user_id":"user-alice"}',
  });
  return (await res.json()).data.access_token;
}

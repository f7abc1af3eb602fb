/**
 * `npm run ci -- certify`: the built `hub-embed-mock certify` grades three backends as an integrator runs
 * it (docs/certify.md): examples/express, examples/hono and the Python receiver in examples/python, each
 * started with the simulator's base URL, form URL and key in its environment, two test users signed in
 * (the Python one started and signed in by certify itself, `certify -- <command>`).
 * CERTIFY_BACKENDS=python,express picks some.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../free-port.js';
import { RECEIVER_RULES } from '../../../packages/hub-embed-mock/src/certify/receiver-rules.js';
import { TOKEN_RULES } from '../../../packages/hub-embed-mock/src/certify/token-rules.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const API_KEY = 'sk-mock-active-0123456789abcdef'; // the simulator's built-in seed key, which certify prints

interface Backend {
  name: string;
  command: string[];
  signIn(origin: string, user: 'alice' | 'bob'): Promise<string>;
  balanceField: string;
  /**
   * Runs of certify against the one running backend: a second run meets the tokens the first run's
   * simulator issued, cached, and the toolkit's hold on a replacement (docs/certify.md).
   */
  runs?: number;
  /**
   * Started by certify itself (`certify -- <command>`, test users signed in with `--sign-in`), with the
   * service's timeout this short: its output is graded, and so is the deadline counted from arrival,
   * which a 10 s timeout leaves not configured.
   */
  startedByCertify?: { deliveryTimeoutMs: number };
}

/** Signs in through the backend's own form and returns the session as a `Cookie: …` header line. */
async function formSignIn(origin: string, user: string): Promise<string> {
  const res = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: `user=${user}`,
    redirect: 'manual',
  });
  const cookie = res.headers.getSetCookie()[0];
  assert.ok(cookie, `sign-in as ${user} gave no cookie (HTTP ${res.status})`);
  return `Cookie: ${cookie.split(';')[0]}`;
}

const BACKENDS: Backend[] = [
  {
    name: 'python',
    command: ['/usr/bin/python3', 'examples/python/receiver.py'],
    signIn: formSignIn,
    balanceField: 'balance_cents',
    startedByCertify: { deliveryTimeoutMs: 4000 },
  },
  {
    name: 'express',
    command: [process.execPath, 'examples/express/start.js'],
    signIn: formSignIn,
    balanceField: 'ledger.balanceCents',
    runs: 2,
  },
  {
    name: 'hono',
    command: [process.execPath, 'examples/hono/start.js'],
    signIn: formSignIn,
    balanceField: 'ledger.balanceCents',
  },
];

const chosen = (process.env.CERTIFY_BACKENDS ?? 'python,express,hono').split(',');

async function waitForListening(origin: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`the backend exited with ${child.exitCode}`);
    try {
      await fetch(`${origin}/api/points`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${origin} did not start`);
}

function run(command: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

for (const backend of BACKENDS.filter((candidate) => chosen.includes(candidate.name))) {
  const runs = backend.runs ?? 1;
  const started = backend.startedByCertify
    ? `, started by certify -- <command> at a ${backend.startedByCertify.deliveryTimeoutMs} ms timeout (backend-output-holds-no-secret, receiver.deadline-counts-from-arrival)`
    : '';
  const title = `hub-embed-mock certify grades ${backend.name} green${runs > 1 ? `, ${runs} runs while it keeps running (certify.second-run)` : ''}${started}`;
  test(title, { timeout: 180_000 * runs }, async () => {
    const [apiPort, formPort, port] = [await freePort(), await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      PORT: String(port),
      HUB_API_KEY: API_KEY,
      HUB_BASE_URL: `http://127.0.0.1:${apiPort}`,
      HUB_FORM_URL: `http://127.0.0.1:${formPort}`,
      HUB_WEBHOOK_IPS: '127.0.0.1',
    };
    const byCertify = backend.startedByCertify;
    const child = byCertify
      ? undefined
      : spawn(backend.command[0]!, backend.command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    child?.stdout?.resume();
    try {
      if (child) await waitForListening(origin, child);
      const sessions = child ? [await backend.signIn(origin, 'alice'), await backend.signIn(origin, 'bob')] : [];
      const signIns = byCertify
        ? ['alice', 'bob'].flatMap((user) => ['--sign-in', `${origin}/sign-in user=${user}`])
        : [];
      for (let round = 1; round <= runs; round++) {
        const junit = join(mkdtempSync(join(tmpdir(), 'certify-')), 'certify.xml');
        const started = performance.now();
        const { code, output } = await run(
          [
            process.execPath,
            'packages/hub-embed-mock/bin/hub-embed-mock.js',
            'certify',
            '--api-port',
            String(apiPort),
            '--form-port',
            String(formPort),
            '--receiver',
            `${origin}/hooks/hub`,
            '--token-route',
            `${origin}/api/hub-token`,
            ...sessions.flatMap((session) => ['--session', session]),
            '--balance',
            `${origin}/api/points`,
            '--balance-field',
            backend.balanceField,
            '--links',
            `${origin}/api/points`,
            '--origin',
            origin,
            ...signIns,
            ...(byCertify ? ['--delivery-timeout-ms', String(byCertify.deliveryTimeoutMs)] : []),
            '--junit',
            junit,
            ...(byCertify ? ['--', ...backend.command] : []),
          ],
          { ...process.env, PORT: String(port) },
        );
        console.log(`--- ${backend.name}, run ${round} (${Math.round(performance.now() - started)} ms)\n${output}`);
        assert.equal(code, 0, `certify exited ${code} for ${backend.name} on run ${round}`);
        const xml = readFileSync(junit, 'utf8');
        // The API key rule is graded with the token route's. A receiver that builds a link's token only when
        // the page shows it leaves receiver.colliding-users-own-tokens not graded (skipped).
        assert.match(
          xml,
          new RegExp(
            `<testsuite name="hub-embed certify: receiver" tests="${RECEIVER_RULES.length}" failures="0"${byCertify ? ' skipped="0"' : ''}`,
          ),
        );
        assert.match(
          xml,
          // The API key rule, and with the backend started by certify its output rule.
          new RegExp(
            `<testsuite name="hub-embed certify: token-route" tests="${TOKEN_RULES.length + (byCertify ? 2 : 1)}" failures="0" skipped="0"`,
          ),
        );
      }
    } finally {
      child?.kill('SIGTERM');
    }
  });
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../src/mock/seed.js';
import { rawRequest } from './raw-http.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', './scripts/ts-register.mjs', 'src/mock/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
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
    expect(Object.keys(info).sort()).toEqual(['apiKey', 'baseUrl', 'formUrl']);
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

  it('bad flags and bad seed files exit with status 2 and a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-mock-'));
    writeFileSync(join(dir, 'bad.json'), '{"accounts": 1}');
    for (const args of [
      ['--fault-rate', '2'],
      ['--api-port', 'x'],
      ['--bogus'],
      ['--allowed-host', 'http://sim.test'],
      ['--log-limit', '0'],
      ['--seed', join(dir, 'missing.json')],
      ['--seed', join(dir, 'bad.json')],
    ]) {
      const p = run(args);
      p.first.catch(() => {});
      expect(await p.exit).toBe(2);
      expect(p.stderr()).toMatch(/hub-embed-mock: .+/);
    }
  }, 30_000);

  it('cli.ts starts with the shebang the build keeps', async () => {
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(ROOT, 'src/mock/cli.ts'), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });
});

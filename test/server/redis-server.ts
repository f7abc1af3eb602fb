// Starts a real redis-server (Debian package `redis-server`) on a free loopback port in a temp dir, for
// tests and the bench. Never a mock: the cache's locking is only worth testing against the real thing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port.js';

/** The redis-server binary, or undefined when none is installed. */
export function findRedisServer(): string | undefined {
  const candidates = [process.env.REDIS_SERVER, 'redis-server'].filter((c): c is string => !!c);
  for (const candidate of candidates) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

/** CI must not pass because Redis was missing: there a missing server is a failure, not a skip. */
export const redisRequired = process.env.CI === 'true' || process.env.HUB_REQUIRE_REDIS === '1';

export const REDIS_MISSING =
  'no redis-server found (apt-get install -y redis-server, or set REDIS_SERVER); the Redis token-cache tests need a real one';

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface RedisServer {
  port: number;
  url: string;
  /** SIGKILL: the server dies at once, as in a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hub-redis-'));
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 200; i++) {
      if (await accepting(port)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Starts a real Postgres server (Debian package `postgresql`) in a temp dir on a free loopback port, for the
// tests that hold the example's ledger to a real server. Postgres refuses to run as root: as root, the
// server runs as the `postgres` user (runuser), which owns the temp dir.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port.js';

/** CI must not pass because Postgres was missing: there a missing server is a failure, not a skip. */
export const postgresRequired = process.env.HUB_REQUIRE_POSTGRES === '1';

export const POSTGRES_MISSING =
  'no Postgres server binaries found (apt-get install -y postgresql, or set PG_BIN to the folder of initdb and pg_ctl)';

/** The folder holding initdb and pg_ctl, or undefined when Postgres is not installed. */
export function findPostgresBin(): string | undefined {
  const candidates = [process.env.PG_BIN];
  if (existsSync('/usr/lib/postgresql'))
    for (const version of readdirSync('/usr/lib/postgresql').sort().reverse())
      candidates.push(`/usr/lib/postgresql/${version}/bin`);
  return candidates.find(
    (dir) => dir !== undefined && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
}

export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}

export async function startPostgresServer(bin: string): Promise<PostgresServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hub-postgres-'));
  const asRoot = process.getuid?.() === 0;
  let user: { uid: number; gid: number } | undefined;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    user = { uid, gid };
    chownSync(dir, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const [command, commandArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`.slice(0, 2000));
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    'start',
  ]);
  void user;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// Apps made for a test in a temporary folder, with the packed tarball (scripts/pack.mjs) installed by
// plain `npm install`, as a user installs it. Shared by the tests of what ships (test/shipped, test/metro).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOCK_PACKAGE, lastPacked, packedTarball } from '../../scripts/pack.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The repository's package.json. */
export const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  /** Where the custom elements manifest ships (built into dist/). */
  customElements: string;
  exports: Record<string, string | Record<string, string>>;
  repository: { url: string };
  bin?: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The version this repository has installed of `name`: what its tests run with. */
export const installedVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

let packed: ReturnType<typeof packedTarball> | undefined;
/**
 * The tarball (built and packed when stale), once per process; the one in HUB_EMBED_PACKED when a lane's
 * npm script packed it already for all its test files.
 */
export function tarball(): ReturnType<typeof packedTarball> {
  const given = process.env.HUB_EMBED_PACKED;
  return (packed ??= given ? lastPacked(given) : packedTarball());
}

let packedMock: ReturnType<typeof packedTarball> | undefined;
/** hub-embed-mock's tarball (packages/hub-embed-mock), once per process: hub-embed/mock re-exports it. */
export function mockTarball(): ReturnType<typeof packedTarball> {
  return (packedMock ??= packedTarball(MOCK_PACKAGE));
}

export interface Result {
  status: number | null;
  out: string;
}

const ENV = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/** Runs a command to its end and returns its exit status with stdout and stderr together. */
export function run(cmd: string, args: string[], cwd: string): Result {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: ENV, maxBuffer: 64 * 1024 * 1024 });
  return {
    status: result.status,
    out: `${result.error ? `${cmd}: ${result.error.message}\n` : ''}${result.stdout}\n${result.stderr}`,
  };
}

/**
 * As `run`, without blocking the event loop (two Metro bundles run side by side); `env` replaces the
 * environment where a lane needs its own (no service secrets at build, a Node of its own first on PATH).
 */
export function runAsync(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = ENV,
): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', (error) => resolve({ status: null, out: `${cmd}: ${error.message}\n${out}` }));
    child.on('close', (status) => resolve({ status, out }));
  });
}

/** Fails with the command's last output when it did not exit 0. */
export function assertRan(result: Result, what: string): void {
  assert.equal(result.status, 0, `${what} failed:\n${result.out.slice(-6000)}`);
}

/** The flags of every install here: no audit or funding calls, and the npm cache first. */
export const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];

/** `npm install` in `dir` of `specs` (no --legacy-peer-deps, no --force: as a user types it). */
export function npmInstall(dir: string, specs: string[]): Result {
  return run('npm', ['install', ...INSTALL_FLAGS, ...specs], dir);
}

/** A fresh app folder under the system's temporary folder with a package.json; removed by `remove`. */
export function tempApp(name: string, manifest: Record<string, unknown> = {}): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `hub-embed-${name}-`));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, ...manifest }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

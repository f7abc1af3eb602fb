/**
 * `certify -- <command>`: the backend started by certify itself, with the simulator's values in its
 * environment, and everything it prints kept (stdout and stderr apart) for the output rule: a key or a
 * token in a log is read by whoever reads the log, and only a grader that starts the backend sees it.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** More than any run's log; the rest is counted, not kept (a backend that floods still gets graded). */
const KEPT_BYTES = 8 * 1024 * 1024;

export interface BackendProcess {
  /** What the backend printed so far, by stream. */
  output(): { stdout: string; stderr: string };
  /** Set once the process has ended (its exit code, or the signal's name). */
  exited(): string | undefined;
  stop(): Promise<void>;
}

export function startBackendProcess(command: readonly string[], env: Record<string, string>): BackendProcess {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kept = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  let size = 0;
  let ended: string | undefined;
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream]!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= KEPT_BYTES) kept[stream].push(chunk);
    });
  const closed = new Promise<void>((resolve) => {
    child.on('error', (error) => {
      ended = `could not start: ${error.message}`;
      resolve();
    });
    child.on('exit', (code, signal) => {
      ended = code === null ? String(signal) : `exit ${code}`;
      resolve();
    });
  });
  return {
    output: () => ({
      stdout: Buffer.concat(kept.stdout).toString('utf8'),
      stderr: Buffer.concat(kept.stderr).toString('utf8'),
    }),
    exited: () => ended,
    async stop() {
      if (ended === undefined) child.kill('SIGTERM');
      const timer = setTimeout(() => ended === undefined && child.kill('SIGKILL'), 5000);
      await closed;
      clearTimeout(timer);
    },
  };
}

/**
 * Signs a test user in through the backend's own form: POSTs `body` (form-encoded) to `url` and turns the
 * cookies it sets into a session header, `Cookie: a=1; b=2`. What `--sign-in 'URL BODY'` does for a
 * backend certify starts, whose sessions cannot exist before it runs.
 */
export async function signInSession(spec: string): Promise<string> {
  const [url = '', ...rest] = spec.trim().split(/\s+/);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
    body: rest.join(' '),
    redirect: 'manual',
  });
  await res.body?.cancel();
  const cookies = res.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!.trim());
  if (cookies.length === 0) throw new Error(`--sign-in ${spec}: answered ${res.status} and set no cookie`);
  return `Cookie: ${cookies.join('; ')}`;
}

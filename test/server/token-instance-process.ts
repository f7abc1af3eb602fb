// Starts test/server/fixtures/token-instance.ts (one token endpoint process of a multi-instance
// deployment) for the Redis tests and the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Spawns one instance with `env` added to this process's environment, records it in `children` (the
 * caller stops them), and resolves to the port it printed on its first line.
 */
export async function startTokenInstance(env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--import', './scripts/ts-register.mjs', 'test/server/fixtures/token-instance.ts'],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`token instance exited with ${code}`)));
  });
  return (JSON.parse(line) as { port: number }).port;
}

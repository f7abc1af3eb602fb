// .ci/run's two shards (`--shard 1/2`, `--shard 2/2`): two runners that together run every lane of the
// single run, each lane once, and each starting from a clean clone (so both install).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** The lanes `.ci/run --list …` says it would run, in order. */
function lanes(...args: string[]): string[] {
  return execFileSync('bash', ['.ci/run', '--list', ...args], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('.ci/run shards', () => {
  const all = lanes();
  const first = lanes('--shard', '1/2');
  const second = lanes('--shard', '2/2');

  it('the two shards together run every lane of the single run, and no lane but install twice', () => {
    expect(all.length).toBeGreaterThan(10);
    expect([...first, ...second.filter((lane) => lane !== 'install')].sort()).toEqual([...all].sort());
    expect(first.filter((lane) => second.includes(lane))).toEqual(['install']);
  });

  it('each shard installs first; the first runs the fast gate before every lane but the commit check', () => {
    expect(first[0]).toBe('install');
    expect(second[0]).toBe('install');
    expect(first.slice(0, first.indexOf('test'))).toEqual(['install', 'commits']);
  });

  it('the second shard holds the engine lanes, a11y (beside hosts), the runtimes and the examples', () => {
    expect(second).toEqual(['install', 'e2e', 'a11y', 'hosts', 'android', 'runtimes', 'examples']);
  });

  it('lanes named on the command line are run whatever the shard', () => {
    expect(lanes('e2e', 'lint')).toEqual(['lint', 'e2e']);
    expect(lanes('--shard', '2/2', 'lint')).toEqual(['lint']);
  });

  it('a shard other than 1/2 or 2/2 is refused with a clear error and exit status 2', () => {
    let error: { status?: number; stderr?: string } = {};
    try {
      execFileSync('bash', ['.ci/run', '--list', '--shard', '3/2'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error.status).toBe(2);
    expect(error.stderr).toContain('--shard takes 1/2 or 2/2');
  });
});

// scripts/tree-unchanged.mjs, which CI's build lane runs the build under: a command that leaves git status
// as it found it passes; one that leaves a file to commit (a generated file outside dist/, or a committed
// file rewritten) fails and names it. Each case runs in a git repository of its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/tree-unchanged.mjs');
const repos: string[] = [];

/** A repository with a committed README.md and dist/ ignored, as the project has it. */
function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hub-tree-unchanged-'));
  repos.push(dir);
  const git = (...args: string[]) => {
    const result = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
  };
  git('init', '-q');
  writeFileSync(join(dir, '.gitignore'), 'dist/\n');
  writeFileSync(join(dir, 'README.md'), 'committed\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'Start');
  return dir;
}

/** Runs `node -e script` under tree-unchanged.mjs in `dir`. */
function underCheck(dir: string, script: string) {
  return spawnSync(process.execPath, [SCRIPT, process.execPath, '-e', script], { cwd: dir, encoding: 'utf8' });
}

const write = (path: string, text: string) =>
  `require('fs').mkdirSync(require('path').dirname(${JSON.stringify(path)}), { recursive: true }); ` +
  `require('fs').writeFileSync(${JSON.stringify(path)}, ${JSON.stringify(text)});`;

afterEach(() => {
  for (const dir of repos.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a build leaves git status as it found it (scripts/tree-unchanged.mjs)', () => {
  it('a command that writes only into the ignored dist/ passes', () => {
    const result = underCheck(repository(), write('dist/custom-elements.json', '{}'));
    expect(result.status, result.stderr).toBe(0);
  });

  it('a generated file left outside dist/ fails, named', () => {
    const result = underCheck(repository(), write('custom-elements.json', '{}'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('custom-elements.json');
  });

  it('a committed file rewritten as committed passes; rewritten otherwise, it fails, named', () => {
    expect(underCheck(repository(), write('README.md', 'committed\n')).status).toBe(0);
    const changed = underCheck(repository(), write('README.md', 'regenerated\n'));
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain('README.md');
  });

  it("the contributor's own changes stay out of it: only what the command changed counts", () => {
    const dir = repository();
    writeFileSync(join(dir, 'README.md'), 'my edit\n');
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    expect(underCheck(dir, write('dist/web-types.json', '{}')).status).toBe(0);
    const rewritten = underCheck(dir, write('README.md', 'regenerated\n'));
    expect(rewritten.status).toBe(1);
    expect(rewritten.stderr).toContain('README.md');
    expect(rewritten.stderr).not.toContain('notes.txt');
  });

  it('a command that fails fails with its own status, whatever it wrote', () => {
    expect(underCheck(repository(), 'process.exit(3)').status).toBe(3);
  });
});

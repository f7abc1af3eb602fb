// The commit message rules (issue 45 item 5; scripts/commit-msg.mjs, run by .githooks/commit-msg on each
// new commit and by .ci/run on the commits after the last one written before the rules).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanMessage, commitsWithProblems, messageProblems, SUBJECT_MAX } from '../../scripts/commit-msg.mjs';

const check = (text: string): string[] => messageProblems(text);
const GOOD = 'Run the fast gate before the lanes\n\nnpm test took 170 s; it takes 80 s now.\n';

describe('commit messages', () => {
  it('a subject in the imperative with a body after a blank line passes', () => {
    expect(check(GOOD)).toEqual([]);
    expect(check('Fix the token refresh')).toEqual([]);
    expect(check('Embed the form half in the WebView build\n')).toEqual([]);
  });

  it(`the subject is at most ${SUBJECT_MAX} characters`, () => {
    const at = `Add ${'x'.repeat(SUBJECT_MAX - 4)}`;
    expect(check(at)).toEqual([]);
    expect(check(`${at}y`)).toEqual([
      expect.stringContaining(`${SUBJECT_MAX + 1} characters, more than ${SUBJECT_MAX}`),
    ]);
  });

  it('the subject does not end with a period', () => {
    expect(check('Add a lane for the bench.')).toEqual(['the subject ends with a period']);
    expect(check('Add a lane for the bench…')).toEqual([]);
  });

  it('the subject does not start with a file name and a colon', () => {
    expect(check('docs/benchmarks.md: the results table')).toEqual([
      expect.stringContaining('starts with the file "docs/benchmarks.md:"'),
    ]);
    expect(check('form-opener.ts: the reason sits on #newFrame')).toEqual([
      expect.stringContaining('starts with the file "form-opener.ts:"'),
    ]);
  });

  it('the subject does not start with a label and a colon', () => {
    expect(check('CHANGELOG: the move saves 100 B')).toEqual([expect.stringContaining('the label "CHANGELOG:"')]);
    expect(check('fix: the token refresh')).toEqual([expect.stringContaining('the label "fix:"')]);
    // A colon later in the subject is fine.
    expect(check('Split docs/webview.md: one page per host')).toEqual([]);
  });

  it('the subject starts with a capitalised verb in the imperative', () => {
    expect(check('add the lane')).toEqual([
      expect.stringContaining('start with a verb in the imperative, capitalised'),
    ]);
    expect(check('Added the lane')).toEqual([expect.stringContaining('"Added"')]);
    expect(check('Adding the lane')).toEqual([expect.stringContaining('"Adding"')]);
    expect(check('Adds the lane')).toEqual([expect.stringContaining('"Adds"')]);
    for (const verb of ['Embed', 'Bring', 'Pass', 'Focus', 'Speed', 'Alias', 'Address', 'Check', 'Process'])
      expect(check(`${verb} the thing`), verb).toEqual([]);
  });

  it('a blank line separates the subject from the body', () => {
    expect(check('Add the lane\nwhich runs the bench')).toEqual([
      'the second line is not blank: leave one blank line between the subject and the body',
    ]);
  });

  it('an empty message is refused', () => {
    expect(check('')).toEqual(['the message is empty']);
    expect(check('# only a comment\n\n')).toEqual(['the message is empty']);
  });

  it('the lines git strips are not read: comments and everything below the scissors line', () => {
    const verbose = `Add the lane\n\nBody.\n# Please enter the commit message\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n${'y'.repeat(200)}.\n`;
    expect(cleanMessage(verbose)).toBe('Add the lane\n\nBody.');
    expect(check(verbose)).toEqual([]);
    expect(check('\n\nAdd the lane\r\n\r\nBody.\r\n')).toEqual([]);
  });

  it('an autosquash marker is git\'s: the subject after "fixup! " is what is checked', () => {
    expect(check('fixup! Add the lane')).toEqual([]);
    expect(check('fixup! added the lane')).toEqual([expect.stringContaining('"added"')]);
  });
});

describe('the commit-msg hook and the CI check', () => {
  const repo = mkdtempSync(join(tmpdir(), 'hub-commit-msg-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const ROOT = join(import.meta.dirname, '../..');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('the hooks path is one command in CONTRIBUTING.md, and no install lifecycle script ships to set it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // npm counts these among the install scripts of a user's install (prepare: of a git dependency's).
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => name in pkg.scripts);
    expect(lifecycle).toEqual([]);
    expect(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')).toContain('git config core.hooksPath .githooks');
  });

  it('with the hooks path set, the commit-msg hook refuses a bad message and keeps a good one', () => {
    git('init', '-q');
    git('config', 'core.hooksPath', join(ROOT, '.githooks'));
    writeFileSync(join(repo, 'a.txt'), 'a');
    git('add', 'a.txt');
    expect(() => git('commit', '-q', '-m', 'added a file.')).toThrow(/the subject ends with a period/);
    expect(() => git('rev-parse', 'HEAD')).toThrow();
    git('commit', '-q', '-m', 'Add a file', '-m', 'Why it is there.');
    expect(git('log', '--format=%s')).toBe('Add a file\n');
  });

  it('CI lists each commit after the cutoff that breaks a rule, and only those', () => {
    const base = git('rev-parse', 'HEAD').trim();
    // Commits from before the rules, or from a clone whose hooks were never installed: no hook runs.
    git('config', '--unset', 'core.hooksPath');
    writeFileSync(join(repo, 'b.txt'), 'b');
    git('add', 'b.txt');
    git('commit', '-q', '-m', 'b.txt: the second file, with a subject that says everything there is to say at once');
    writeFileSync(join(repo, 'c.txt'), 'c');
    git('add', 'c.txt');
    git('commit', '-q', '-m', 'Add a third file');
    const bad = commitsWithProblems(base, repo);
    expect(bad.map((commit) => commit.subject)).toEqual([
      'b.txt: the second file, with a subject that says everything there is to say at once',
    ]);
    expect(bad[0]!.problems).toHaveLength(2);
    expect(() => commitsWithProblems('0'.repeat(40), repo)).toThrow(/cannot check the commits after it/);
  });
});

// The commit message rules (CONTRIBUTING.md, "Writing a commit"): a subject line of at most 72 characters
// that says what the commit does in the imperative ("Add …", "Serve …"), no period at its end, and the why
// and the measurements in a body after one blank line, so that `git log --oneline` reads as a list.
//   node scripts/commit-msg.mjs <file>            checks one message (the commit-msg hook, .githooks/commit-msg)
//   node scripts/commit-msg.mjs --since <commit>  checks every commit after <commit> up to HEAD (.ci/run)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUBJECT_MAX = 72;

/** The last commit written before the rules: CI checks the commits after it. */
export const RULES_SINCE = 'ffbb18d';

/** Imperative verbs that end the way a past tense, a participle or a third person does. */
const VERBS_LIKE_OTHER_FORMS = new Set([
  'embed',
  'shed',
  'shred',
  'bring',
  'string',
  'sling',
  'wring',
  'ping',
  'ring',
  'sing',
  'alias',
  'bias',
  'canvas',
  'focus',
  'gas',
  'does',
]);

/**
 * The message as git stores it: without the lines git strips (comments, and everything below the
 * scissors line of `git commit --verbose`) and without blank lines around it.
 */
export function cleanMessage(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const scissors = lines.findIndex((line) => /^# -+ >8 -+$/.test(line));
  return (scissors === -1 ? lines : lines.slice(0, scissors))
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

/** What is wrong with a commit message (empty when nothing is). */
export function messageProblems(text) {
  const message = cleanMessage(text);
  if (message === '') return ['the message is empty'];
  const [subject, second] = message.split('\n');
  const problems = [];
  // An autosquash marker is git's, not the author's words: the subject it marks is checked.
  const own = subject.replace(/^(?:(?:fixup|squash|amend)! )+/, '');
  if (subject.length > SUBJECT_MAX)
    problems.push(
      `the subject is ${subject.length} characters, more than ${SUBJECT_MAX}: say what the commit does in the subject and move the rest to the body`,
    );
  if (/[.]$/.test(own)) problems.push('the subject ends with a period');
  const prefix = /^([^\s:]+):(?:\s|$)/.exec(own);
  if (prefix && /[/.]/.test(prefix[1]))
    problems.push(
      `the subject starts with the file "${prefix[1]}:"; start with what the commit does ("Add …", "Fix …") and name files in the body`,
    );
  else if (prefix)
    problems.push(
      `the subject starts with the label "${prefix[1]}:"; start with what the commit does in the imperative ("Add …", "Fix …")`,
    );
  else {
    const word = /^\S*/.exec(own)[0];
    const lower = word.toLowerCase();
    if (!/^[A-Z]/.test(word))
      problems.push(`the subject starts with "${word}": start with a verb in the imperative, capitalised ("Add …")`);
    else if (!VERBS_LIKE_OTHER_FORMS.has(lower) && /^[a-z]+(?:ed|ing)$/.test(lower) && !/eed$/.test(lower))
      problems.push(`the subject starts with "${word}": use the imperative ("Add", not "Added" or "Adding")`);
    else if (!VERBS_LIKE_OTHER_FORMS.has(lower) && /^[a-z]+[^su]s$/.test(lower))
      problems.push(`the subject starts with "${word}": use the imperative ("Add", not "Adds")`);
  }
  if (second !== undefined && second !== '')
    problems.push('the second line is not blank: leave one blank line between the subject and the body');
  return problems;
}

/** The commits after `since` up to HEAD, oldest first, each with its problems (only those that have any). */
export function commitsWithProblems(since, cwd = process.cwd()) {
  const git = (...args) => execFileSync('git', args, { cwd, encoding: 'utf8' });
  try {
    git('merge-base', '--is-ancestor', since, 'HEAD');
  } catch {
    throw new Error(`${since} is not a commit before HEAD here (a shallow clone?): cannot check the commits after it`);
  }
  const hashes = git('rev-list', '--reverse', `${since}..HEAD`).split('\n').filter(Boolean);
  return hashes
    .map((hash) => ({
      hash,
      subject: git('log', '-1', '--format=%s', hash).trim(),
      problems: messageProblems(git('log', '-1', '--format=%B', hash)),
    }))
    .filter((commit) => commit.problems.length > 0);
}

function main(args) {
  if (args[0] === '--since') {
    const since = args[1] ?? RULES_SINCE;
    const bad = commitsWithProblems(since);
    for (const { hash, subject, problems } of bad)
      console.error(`${hash.slice(0, 10)} ${subject}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    if (bad.length) {
      console.error(
        `${bad.length} commit(s) after ${since} break the commit message rules (CONTRIBUTING.md, "Writing a commit").`,
      );
      return 1;
    }
    console.log(`The commits after ${since} follow the commit message rules.`);
    return 0;
  }
  if (args.length !== 1) {
    console.error('usage: node scripts/commit-msg.mjs <message file> | --since <commit>');
    return 2;
  }
  const problems = messageProblems(readFileSync(args[0], 'utf8'));
  if (problems.length === 0) return 0;
  console.error(`The commit message breaks the rules (CONTRIBUTING.md, "Writing a commit"):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  console.error(`Your message is kept in ${args[0]}: \`git commit -e -F ${args[0]}\` edits it again.`);
  return 1;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '')
  process.exit(main(process.argv.slice(2)));

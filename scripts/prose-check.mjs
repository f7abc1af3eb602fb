// Prose that cannot rot: a doc or a comment must not say what the code can prove wrong by changing. Two
// rules, each shown to fire in test/package/prose-check.test.ts:
//   node-version  a Node release older than package.json's engines: a page that still names one tells a
//                 reader that release is supported, or that a workaround for it is still needed;
//   count         a count of tests, elements or lanes, in digits or words ("N tests", "N elements", "N
//                 lanes"): the code holds the count, and a sentence reads as well without it.
// It reads the Markdown pages (README.md, CONTRIBUTING.md, docs/, the packages' and examples' READMEs) and the
// comments of the code, scripts, tests and config (.ci/run included). CHANGELOG.md is history and may name
// what was; docs/benchmarks.md is a run's output, rendered by `npm run release:benchmarks`; the check's own
// test holds the rules' examples.
//   node scripts/prose-check.mjs   prints each finding as file:line: rule: text; exit status 1 when any
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** [major, minor] of the oldest Node that package.json's engines admits (`>=22.13.0` gives [22, 13]). */
export function enginesFloor(range = engines.node) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?/.exec(range);
  if (!match) throw new Error(`package.json engines.node is not a ">=" range: ${range}`);
  return [Number(match[1]), Number(match[2] ?? 0)];
}

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty';

/** Each rule: its name and the findings (the matched text) of one line of prose. */
export const RULES = [
  {
    name: 'node-version',
    find(line, floor = enginesFloor()) {
      return [...line.matchAll(/\bNode(?:\.js)?\s+v?(\d+)(?:\.(\d+))?/g)]
        .filter(([, major, minor]) => {
          const [floorMajor, floorMinor] = floor;
          return (
            Number(major) < floorMajor || (Number(major) === floorMajor && Number(minor ?? floorMinor) < floorMinor)
          );
        })
        .map(([text]) => text);
    },
  },
  {
    name: 'count',
    find(line) {
      const pattern = new RegExp(
        `\\b(?:\\d[\\d,]*|${NUMBER_WORDS})\\s+(?:[a-z-]+\\s+)?(?:tests|elements|lanes)\\b`,
        'gi',
      );
      return [...line.matchAll(pattern)].map(([text]) => text);
    },
  },
];

/** The prose lines of a file's text, as [line number, text]: all of Markdown, the comments of code. */
export function proseLines(file, text) {
  const lines = text.split('\n');
  if (file.endsWith('.md')) return lines.map((line, i) => [i + 1, line]);
  const shell = file.endsWith('/run') || file.endsWith('.sh');
  const prose = [];
  let inBlock = false;
  lines.forEach((line, i) => {
    if (shell) {
      const hash = /(?:^|\s)#(?!!)(.*)$/.exec(line);
      if (hash) prose.push([i + 1, hash[1]]);
      return;
    }
    let rest = line;
    if (inBlock) {
      const end = rest.indexOf('*/');
      prose.push([i + 1, end < 0 ? rest : rest.slice(0, end)]);
      if (end < 0) return;
      inBlock = false;
      rest = rest.slice(end + 2);
    }
    const block = rest.indexOf('/*');
    const lineComment = /(?:^|[\s;,({])\/\/(.*)$/.exec(rest);
    if (lineComment && (block < 0 || lineComment.index < block)) {
      prose.push([i + 1, lineComment[1]]);
      return;
    }
    if (block >= 0) {
      const end = rest.indexOf('*/', block + 2);
      prose.push([i + 1, end < 0 ? rest.slice(block + 2) : rest.slice(block + 2, end)]);
      if (end < 0) inBlock = true;
    }
  });
  return prose;
}

/** Every finding in a file's text: `{ line, rule, text }`. */
export function findingsOf(file, text, floor = enginesFloor()) {
  return proseLines(file, text).flatMap(([line, prose]) =>
    RULES.flatMap((rule) => rule.find(prose, floor).map((found) => ({ line, rule: rule.name, text: found }))),
  );
}

const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage', 'apps', 'corpus']);
const CODE = /\.(ts|tsx|mts|js|mjs|cjs|vue|kt|swift|dart|py)$/;

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name) || name.endsWith('.generated.ts')) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The files the check reads, relative to the root. */
export function checkedFiles(root = ROOT) {
  const under = (folder, pattern) => walk(join(root, folder)).filter((file) => pattern.test(file));
  return [
    'README.md',
    'CONTRIBUTING.md',
    '.ci/run',
    'vite.config.ts',
    'vitest.config.ts',
    'eslint.config.js',
    'tsconfig.json',
    'tsconfig.build.json',
    ...['docs', 'packages', 'examples']
      .flatMap((folder) => under(folder, /\.md$/))
      .filter((file) => !file.endsWith('docs/benchmarks.md')),
    ...['src', 'packages', 'scripts', 'build', 'test', 'bench', 'demo', 'examples'].flatMap((folder) =>
      under(folder, CODE),
    ),
  ]
    .map((file) => (file.startsWith(root) ? relative(root, file) : file))
    .filter((file) => file !== 'test/package/prose-check.test.ts');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const findings = checkedFiles().flatMap((file) =>
    findingsOf(file, readFileSync(join(ROOT, file), 'utf8')).map((finding) => ({ file, ...finding })),
  );
  for (const { file, line, rule, text } of findings) console.error(`${file}:${line}: ${rule}: ${text}`);
  if (findings.length) {
    console.error(
      `${findings.length} claims the code can contradict (scripts/prose-check.mjs): say it without the figure or the old release.`,
    );
    process.exit(1);
  }
  console.log('Docs and comments name no Node older than engines and no count of tests, elements or lanes.');
}

// The contributor surface is one table (scripts/surface.mjs): every npm script and CI lane with its reason,
// CONTRIBUTING.md rendered from it, .ci/run running from it. These fail when a script or a lane is added,
// or a command is named, without its line there.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANES, SCRIPTS, surfaceProblems, withTables } from '../../scripts/surface.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
let listed: string[] | undefined;
/** The lanes `.ci/run --list` says a full run runs, in order (asked once: each ask starts bash and node). */
const ciLanes = () =>
  (listed ??= execFileSync('bash', ['.ci/run', '--list'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean));

describe('scripts/surface.mjs: every script and lane has a line, with its reason', () => {
  it("package.json's scripts and .ci/run's lanes are the table's, each with its command and a reason", () => {
    expect(surfaceProblems({ scripts, lanes: ciLanes() })).toEqual([]);
  });

  it('a script or a lane added without a line, or a lifecycle hook, is named', () => {
    expect(surfaceProblems({ scripts: { ...scripts, 'test:new': 'vitest run' }, lanes: ciLanes() })).toEqual([
      'package.json script "test:new" has no line in scripts/surface.mjs',
    ]);
    expect(surfaceProblems({ scripts, lanes: [...ciLanes(), 'new-lane'] })).toEqual([
      '.ci/run runs lane "new-lane", which has no line in scripts/surface.mjs',
    ]);
    const { lint, ...withoutLint } = scripts;
    expect(
      surfaceProblems({ scripts: { ...withoutLint, lint: `${lint} && true`, prelint: 'true' }, lanes: ciLanes() }),
    ).toEqual([
      `package.json script "lint" runs \`${lint} && true\`, scripts/surface.mjs says \`${lint}\``,
      'package.json script "prelint" is a lifecycle hook: make its step part of the command that needs it',
      'package.json script "prelint" has no line in scripts/surface.mjs',
    ]);
  });

  it("CONTRIBUTING.md's tables of scripts, lanes and generated files are rendered from it", () => {
    const page = read('CONTRIBUTING.md');
    expect(withTables(page), 'run `node scripts/surface.mjs`').toBe(page);
    for (const { name } of SCRIPTS) expect(page).toContain(name === 'test' ? '`npm test`' : `\`npm run ${name}\``);
    for (const { name } of LANES) expect(page).toContain(`| \`${name}\``);
  });

  it('.ci/run runs only the lanes it is given, and refuses a lane it does not know', () => {
    expect(execFileSync('bash', ['.ci/run', '--list', 'e2e', 'lint'], { cwd: ROOT, encoding: 'utf8' })).toBe(
      'lint\ne2e\n',
    );
    let error: { status?: number; stderr?: string } = {};
    try {
      execFileSync('bash', ['.ci/run', '--list', 'no-such-lane'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error.status).toBe(2);
    expect(error.stderr).toContain('no lane "no-such-lane"');
  });

  it('docs/benchmarks.md is rendered by the release step alone: no script or lane renders it', () => {
    const commands = [...SCRIPTS, ...LANES].map(({ command }) => command);
    expect(commands.filter((command) => command.includes('--render'))).toEqual([]);
    expect(read('scripts/release.mjs')).toMatch(/bench\('--render'\)/);
  });
});

/** The repository's text files, as a reader finds commands in them; the apps of a test have their own. */
function textFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (['node_modules', 'dist', '.git', 'apps', 'corpus'].includes(name) || name.endsWith('.generated.ts')) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return textFiles(path);
    return /\.(ts|tsx|mts|js|mjs|md|json|html|vue|kt|swift|dart|py)$|^run$/.test(name) ? [path] : [];
  });
}

/**
 * The scripts a file's `npm run` reaches: those of the nearest package.json above it that has scripts (an
 * example app's own), else the repository's.
 */
function scriptsOf(file: string): Record<string, string> {
  for (let dir = dirname(file); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    const own = existsSync(join(ROOT, manifest))
      ? (JSON.parse(read(manifest)) as { scripts?: Record<string, string> }).scripts
      : undefined;
    if (own) return own;
  }
  return scripts;
}

describe('the commands the docs and the code name', () => {
  it('every `npm run <script>` named in a doc, a comment or a message is a script of its package', () => {
    const files = [
      ...['README.md', 'CONTRIBUTING.md', 'package.json', 'vite.config.ts', 'vitest.config.ts', '.ci/run'],
      ...['src', 'packages', 'test', 'scripts', 'build', 'docs', 'bench', 'demo', 'examples', '.githooks'].flatMap(
        (dir) => (existsSync(join(ROOT, dir)) ? textFiles(dir) : []),
      ),
    ];
    const named = files.flatMap((file) =>
      [...read(file).matchAll(/\bnpm run ([a-z][\w:-]*(?:\w|:\*))(?![\w:-]*\$\{)/g)].map((match) => ({
        file,
        name: match[1]!,
      })),
    );
    // The walk sees the names it checks.
    expect(named.some(({ name }) => name === 'demo')).toBe(true);
    const unknown = named
      // `example:*` stands for every script of that prefix, and needs one.
      .filter(({ file, name }) =>
        name.endsWith(':*')
          ? !Object.keys(scriptsOf(file)).some((script) => script.startsWith(name.slice(0, -1)))
          : !(name in scriptsOf(file)),
      )
      .map(({ file, name }) => `${relative(ROOT, join(ROOT, file))} names npm run ${name}`);
    expect(unknown).toEqual([]);
  });
});

describe('the files of scripts/', () => {
  it('each is a command CONTRIBUTING.md or scripts/surface.mjs names, or a module another file imports', () => {
    const named = read('CONTRIBUTING.md') + read('scripts/surface.mjs');
    const code = ['scripts', 'test', 'bench', 'build', 'demo', 'examples', '.githooks']
      .flatMap((dir) => textFiles(dir))
      .concat(['vite.config.ts', 'vitest.config.ts', 'eslint.config.js']);
    const loose = readdirSync(join(ROOT, 'scripts'))
      .filter((name) => name.endsWith('.mjs'))
      .filter(
        (name) =>
          !named.includes(`scripts/${name}`) &&
          !code.some((file) => file !== `scripts/${name}` && read(file).includes(`/${name}'`)),
      );
    expect(loose).toEqual([]);
  });
});

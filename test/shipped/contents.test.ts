// What the tarball holds and how it packs (issue 62 item 6): its size, the documents a user needs and not
// the contributors' pages, file names that say what they hold, no install script, and an `npm pack --json`
// whose stdout parses though packing builds first.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { pkg, ROOT, tarball } from './apps.js';

/** The tarball's size limit, in bytes (npm reports the same count as "package size"). */
const MAX_TARBALL_BYTES = 400_000;

describe('the tarball', () => {
  it(`is under ${MAX_TARBALL_BYTES / 1000} kB`, () => {
    const bytes = statSync(tarball().tarball).size;
    assert.ok(bytes < MAX_TARBALL_BYTES, `the tarball is ${bytes} bytes, over ${MAX_TARBALL_BYTES}`);
  });

  it('ships README.md, CHANGELOG.md and the user docs, not the pages of how the project is tested and built', () => {
    const { files } = tarball();
    for (const file of ['README.md', 'CHANGELOG.md', 'docs/server.md', 'docs/elements.md'])
      assert.ok(files.includes(file), `${file} is in the tarball`);
    // Contributors' pages: the bench's figures, which file owns which behaviour, how the end-to-end lane
    // drives each engine (the README names the browsers supported).
    for (const file of ['docs/benchmarks.md', 'docs/architecture.md', 'docs/engines.md'])
      assert.ok(!files.includes(file), `${file} is not in the tarball`);
  });

  it("names the simulator's chunk after what it holds, which hub-embed-mock's entry and its CLI import", () => {
    const dist = join(ROOT, 'packages/hub-embed-mock/dist');
    const files = readdirSync(dist);
    const chunks = files.filter((file) => /^simulator-[\w-]+\.js$/.test(file));
    assert.equal(chunks.length, 1, `one simulator-*.js: ${files.join(' ')}`);
    assert.deepEqual(
      files.filter((file) => /^certify-/.test(file)),
      [],
    );
    for (const entry of ['index.js', 'cli.js'])
      assert.match(readFileSync(join(dist, entry), 'utf8'), new RegExp(`from "\\./${chunks[0]!.replace('.', '\\.')}"`));
  });

  it("ships only the declaration files that the entries' types reach", () => {
    const { files } = tarball();
    const shipped = files.filter((file) => file.endsWith('.d.ts'));
    const entries = Object.values(pkg.exports).flatMap((target) =>
      typeof target === 'object' && target.types ? [join(ROOT, target.types)] : [],
    );
    const program = ts.createProgram(entries, { noEmit: true, skipLibCheck: true, types: [] });
    const reached = new Set(program.getSourceFiles().map((file) => file.fileName));
    assert.deepEqual(
      shipped.filter((file) => !reached.has(join(ROOT, file))),
      [],
    );
    // Each entry's own declaration file is among them.
    for (const entry of entries) assert.ok(reached.has(entry), `${entry} is reached`);
  });

  it('runs no script when installed: the packed package.json has no install lifecycle script', () => {
    const packed = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball().tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as { scripts?: Record<string, string> };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter(
      (name) => name in (packed.scripts ?? {}),
    );
    assert.deepEqual(lifecycle, []);
  });
});

describe('npm pack --json', () => {
  it('writes only its JSON report to stdout, though its prepack script builds first', () => {
    // With the scripts: prepack runs scripts/build.mjs --if-stale, whose lines must all go to stderr.
    const result = spawnSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /prepack/);
    const [report] = JSON.parse(result.stdout) as { name: string; files: unknown[] }[];
    assert.equal(report?.name, pkg.name);
  });
});

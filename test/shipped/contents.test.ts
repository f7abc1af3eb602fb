// What the tarball holds and how it packs (issue 62 item 6): its size, the documents a user needs and not
// the contributors' pages, file names that say what they hold, no install script, and an `npm pack --json`
// whose stdout parses though packing builds first.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { cdnTagProblems } from '../../scripts/doc-regions.mjs';
import { pkg, ROOT, tarball } from './apps.js';

/**
 * The tarball's size limit, in bytes (npm reports the same count as "package size"): the code, its types,
 * README.md, CHANGELOG.md and LICENSE, with room. It moves up only for a feature that ships code, in the
 * commit that says which and by how much; never for files a user does not run. 270,000: renderFirstView in
 * hub-embed/server (+8,175 B packed, the first view's markup, styles and texts in dist/server.js). 270,500:
 * the first view's handover waits for the element to draw as many cards as the view (+333 B packed: the
 * wait in the ES build and in both <script> bundles' form halves).
 */
const MAX_TARBALL_BYTES = 270_500;

describe('the tarball', () => {
  it(`is under ${MAX_TARBALL_BYTES / 1000} kB`, () => {
    const bytes = statSync(tarball().tarball).size;
    assert.ok(bytes < MAX_TARBALL_BYTES, `the tarball is ${bytes} bytes, over ${MAX_TARBALL_BYTES}`);
  });

  it('ships code, its types, README.md, CHANGELOG.md and LICENSE; no docs page: they live in the repository', () => {
    const { files } = tarball();
    for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE', 'dist/index.js', 'dist/types/index.d.ts'])
      assert.ok(files.includes(file), `${file} is in the tarball`);
    assert.deepEqual(
      files.filter(
        (file) => file.startsWith('docs/') || (file.endsWith('.md') && !/^(README|CHANGELOG)\.md$/.test(file)),
      ),
      [],
    );
  });

  it("holds none of the simulator's code: hub-embed/mock only re-exports the hub-embed-mock package", () => {
    const { files } = tarball();
    assert.deepEqual(
      files.filter((file) => /simulator|certify|console|mock-cli/.test(file)),
      [],
    );
    assert.equal(readFileSync(join(ROOT, 'dist/mock.js'), 'utf8').trim(), 'export * from "hub-embed-mock";');
    for (const file of files.filter((name) => name.endsWith('.js')))
      assert.doesNotMatch(readFileSync(join(ROOT, file), 'utf8'), /function createSimulator\b|CONSOLE_SCRIPT/, file);
  });

  it("the README's links reach the docs where they live: the repository's files, on GitHub", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    // A relative link breaks on the npm page, which shows the README without the repository beside it.
    assert.deepEqual(
      targets.filter((target) => !/^(https?:|mailto:|#)/.test(target)),
      [],
    );
    const own = targets.flatMap((target) => {
      const path = new RegExp(`^${repository}/(?:blob|tree)/main/([^#]+)`).exec(target)?.[1];
      const raw = /^https:\/\/raw\.githubusercontent\.com\/hub-embed\/hub-embed\/main\/([^#]+)/.exec(target)?.[1];
      return path ?? raw ?? [];
    });
    assert.ok(own.includes('docs/server.md') && own.includes('LICENSE'), own.join(' '));
    assert.deepEqual(
      own.filter((path) => !existsSync(join(ROOT, path))),
      [],
    );
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

  it('runs no script when installed, packed or published: the packed package.json has no lifecycle script', () => {
    // Install scripts run on every user's install; pack and publish ones would build behind the release step
    // (npm run release), which builds, writes what names the release, and packs, in that order.
    const packed = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball().tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as { scripts?: Record<string, string> };
    const lifecycle = Object.keys(packed.scripts ?? {}).filter((name) =>
      /^(pre|post)|^(install|prepare|prepack|postpack|prepublishOnly|publish)$/.test(name),
    );
    assert.deepEqual(lifecycle, []);
  });
});

describe('npm pack --json', () => {
  it('writes only its JSON report to stdout', () => {
    const result = spawnSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    assert.equal(result.status, 0, result.stderr);
    const [report] = JSON.parse(result.stdout) as { name: string; files: unknown[] }[];
    assert.equal(report?.name, pkg.name);
  });
});

describe("the packed README's CDN tag", () => {
  const packed = (file: string) =>
    execFileSync('tar', ['-xzOf', tarball().tarball, `package/${file}`], { encoding: 'utf8' });

  it("names the packed version and reads its integrity from the packed .sri file, which is the script's sha384", () => {
    const { version } = JSON.parse(packed('package.json')) as { version: string };
    assert.deepEqual(cdnTagProblems(packed('README.md'), version), []);
    // What the README sends a user to read: the .sri file of that version, shipped beside the script.
    const script = execFileSync('tar', ['-xzOf', tarball().tarball, 'package/dist/hub-embed.iife.js']);
    const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
    assert.equal(packed('dist/hub-embed.iife.js.sri').trim(), integrity);
  });
});

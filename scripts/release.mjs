// The one release step: every file that names a release is written here, from the build it ships, so that
// nothing a user copies (the CDN tag, the changelog, the figures) can name another release than the tarball.
//   npm run release -- <patch|minor|major|x.y.z>
// In order: refuses a tree with changes (a release is a commit of its own); sets the version (package.json,
// package-lock.json); moves CHANGELOG.md's Unreleased entries under the new version's heading; builds (the
// version is compiled in, so the build comes after it); writes README.md's CDN tag for the version; runs
// the full bench on CI's Node and renders docs/benchmarks.md from it (the only writer of that page); packs
// the tarball into the repository's root. Publishing stays a person's act: it prints the commands.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import semver from 'semver';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UNRELEASED = '## [Unreleased]';

/** The version a release named `bump` (patch, minor, major or a version) gives after `current`. */
export function nextVersion(current, bump) {
  const next = ['patch', 'minor', 'major'].includes(bump) ? semver.inc(current, bump) : semver.valid(bump);
  if (!next) throw new Error(`release: "${bump}" is neither patch, minor, major nor a version.`);
  if (!semver.gt(next, current)) throw new Error(`release: ${next} is not after the current version ${current}.`);
  return next;
}

/**
 * CHANGELOG.md with the Unreleased entries under `## [version] - date`, and an empty Unreleased heading
 * above them for the next change. A release with nothing under Unreleased is refused: it would ship no change.
 */
export function withReleaseSection(changelog, version, date) {
  const start = changelog.indexOf(UNRELEASED);
  if (start < 0) throw new Error(`CHANGELOG.md has no "${UNRELEASED}" heading.`);
  const after = start + UNRELEASED.length;
  const next = changelog.indexOf('\n## ', after);
  const entries = changelog.slice(after, next < 0 ? undefined : next);
  if (!/^- /m.test(entries)) throw new Error('CHANGELOG.md: nothing under Unreleased, so nothing to release.');
  return `${changelog.slice(0, after)}\n\n## [${version}] - ${date}${changelog.slice(after)}`;
}

const run = (command, args) => execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bump = process.argv[2];
  if (!bump) {
    console.error('Usage: npm run release -- <patch|minor|major|x.y.z>');
    process.exit(2);
  }
  const changes = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim();
  if (changes) {
    console.error(`release: the tree has changes; commit or stash them first:\n${changes}`);
    process.exit(1);
  }
  const { version: current } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
  const version = nextVersion(current, bump);
  const changelog = withReleaseSection(
    readFileSync(`${ROOT}CHANGELOG.md`, 'utf8'),
    version,
    new Date().toISOString().slice(0, 10),
  );

  run('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts']);
  writeFileSync(`${ROOT}CHANGELOG.md`, changelog);
  run(process.execPath, ['scripts/build.mjs']);
  run(process.execPath, ['scripts/doc-regions.mjs', '--release']);
  // The figures of this build, on CI's Node (bench/page.ts refuses another), then the page from them.
  const ciNode = execFileSync(process.execPath, ['scripts/node-release.mjs', '24'], { encoding: 'utf8' }).trim();
  const bench = (...args) =>
    execFileSync('node', ['--import', './scripts/ts-register.mjs', 'bench/run.ts', ...args], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${ciNode}:${process.env.PATH}` },
    });
  bench();
  bench('--render');
  run('npm', ['pack', '--ignore-scripts']);
  console.log(
    [
      '',
      `hub-embed ${version} is packed: hub-embed-${version}.tgz. Review the diff, then:`,
      `  git commit -a -m "Release ${version}" -m "<why this release, now>" && git tag v${version}`,
      `  npm publish hub-embed-${version}.tgz && git push --follow-tags`,
    ].join('\n'),
  );
}

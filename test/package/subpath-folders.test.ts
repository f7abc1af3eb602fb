// Resolvers that ignore `exports` (Metro before 0.82, TypeScript's moduleResolution node10) find each
// subpath through a folder of its own holding a package.json (scripts/subpath-folders.mjs, issue 59 item 3).
// Those folders come from `exports` alone, so they cannot drift from it; the packed tarball's bundles and
// type checks under old resolvers are the metro lane's (test/metro).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { subpathManifests, subpathProblems, writeSubpathFolders } from '../../scripts/subpath-folders.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A copy of package.json and the folders in a scratch directory, to change without touching the repository. */
function copyOfPackage(): string {
  scratch = mkdtempSync(join(tmpdir(), 'hub-embed-subpaths-'));
  cpSync(join(ROOT, 'package.json'), join(scratch, 'package.json'));
  for (const file of Object.keys(subpathManifests(pkg))) cpSync(join(ROOT, file), join(scratch, file));
  return scratch;
}

describe('subpath folders for resolvers that ignore exports', () => {
  it('every subpath export has a folder whose main and types are its default and types targets', () => {
    const subpaths = Object.keys(pkg.exports).filter((key) => key !== '.' && typeof pkg.exports[key] === 'object');
    expect(subpaths.length).toBeGreaterThanOrEqual(12);
    for (const subpath of subpaths) {
      const folder = subpath.slice(2);
      const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8'));
      const resolve = (field: string) => new URL(manifest[field], new URL(`${folder}/`, `file://${ROOT}`)).pathname;
      // A types-only entry (hub-embed/jsx/preact, …) has no JavaScript, so its folder names none.
      if (pkg.exports[subpath].default) expect(resolve('main'), subpath).toBe(join(ROOT, pkg.exports[subpath].default));
      else expect(manifest.main, subpath).toBeUndefined();
      expect(resolve('types'), subpath).toBe(join(ROOT, pkg.exports[subpath].types));
    }
  });

  it('the folders are current and package.json "files" ships each of them', () => {
    expect(subpathProblems()).toEqual([]);
  });

  it('a changed export, a missing folder or a folder left out of "files" is reported, and the writer mends the folders', () => {
    const dir = copyOfPackage();
    const changed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    changed.exports['./core'].default = './dist/core-next.js';
    changed.files = changed.files.filter((file: string) => file !== 'vue/package.json');
    writeFileSync(join(dir, 'package.json'), JSON.stringify(changed, null, 2));
    rmSync(join(dir, 'react-native/package.json'));
    expect(subpathProblems(dir)).toEqual([
      'core/package.json is stale',
      'package.json "files" leaves out vue/package.json',
      'react-native/package.json is missing',
    ]);
    writeSubpathFolders(dir);
    expect(subpathProblems(dir)).toEqual(['package.json "files" leaves out vue/package.json']);
    expect(JSON.parse(readFileSync(join(dir, 'core/package.json'), 'utf8')).main).toBe('../dist/core-next.js');
  });
});

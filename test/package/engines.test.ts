// package.json's `engines` is a promise: the toolkit runs on that Node, and so does `npm ci` for a
// contributor, with no EBADENGINE from a dependency that wants a newer Node than engines names.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8'));

describe('engines', () => {
  it('every package npm ci installs runs on the oldest Node that engines names, so it prints no EBADENGINE', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const packages = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>);
    const withEngines = packages.filter(([, entry]) => typeof entry.engines?.node === 'string');
    // The walk sees the lockfile's packages at all.
    expect(withEngines.length).toBeGreaterThan(100);
    const refusing = withEngines
      .filter(([, entry]) => !semver.satisfies(oldest, entry.engines!.node!))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} wants node ${entry.engines!.node}`);
    expect(refusing, `Node ${oldest}`).toEqual([]);
  });

  it('the lockfile is of this package.json: the same engines and dependencies', () => {
    const root = lock.packages[''];
    expect(root.engines).toEqual(pkg.engines);
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
  });
});

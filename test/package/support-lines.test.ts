// The Node lines and TypeScript majors hub-embed supports are the ones CI runs, and no fewer: each rule here
// fails when a line is dropped from the pins, from a lane, or from what package.json promises.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CI_NODE, enginesRange, NODE_RELEASES } from '../../scripts/node-release.mjs';
import { LANES } from '../../scripts/surface.mjs';
import { NODE_RUNTIMES } from '../runtimes/runtimes.js';
import {
  TYPESCRIPT_MAJORS,
  TYPESCRIPT_RELEASES,
  typescriptSpecs,
  type TypeScriptMajor,
} from '../shipped/typescripts.js';

const ROOT = new URL('../../', import.meta.url);
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  valid(version: string): string | null;
};
const json = (path: string) => JSON.parse(readFileSync(new URL(path, ROOT), 'utf8'));
const lane = (name: string) => LANES.find((line: { name: string }) => line.name === name)!.command as string;

/** The maintained Node lines (nodejs.org's release schedule): 26 Active LTS, 24 and 22 in maintenance. */
const MAINTAINED_NODE = ['22', '24', '26'];
/** The TypeScript majors a user's project may compile the declarations with. */
const SUPPORTED_TYPESCRIPT = ['5.9', '6', '7'];

describe('Node lines', () => {
  it('CI pins every maintained Node line, 22, 24 and 26, each to one release of that line', () => {
    expect(Object.keys(NODE_RELEASES)).toEqual(MAINTAINED_NODE);
    for (const [major, version] of Object.entries(NODE_RELEASES)) {
      expect(semver.valid(version), version).toBe(version);
      expect(version.split('.')[0]).toBe(major);
    }
    expect(MAINTAINED_NODE).toContain(String(CI_NODE));
  });

  it('the runtimes lane runs the server toolkit on every maintained Node line', () => {
    expect([...NODE_RUNTIMES]).toEqual(MAINTAINED_NODE.map((major) => `node${major}`));
    expect(lane('runtimes')).toContain(`node scripts/node-release.mjs ${MAINTAINED_NODE.join(' ')}`);
  });

  it('the package lane installs every maintained Node line before it require()s the tarball on each', () => {
    // test/shipped/commonjs.test.ts runs each require() on every release of NODE_RELEASES.
    expect(lane('package')).toContain(`node scripts/node-release.mjs ${MAINTAINED_NODE.join(' ')}`);
  });

  it('engines admits each tested release and what follows it in its line, and nothing older or untested', () => {
    const range = enginesRange();
    expect(json('package.json').engines.node).toBe(range);
    expect(json('packages/hub-embed-mock/package.json').engines.node).toBe(range);
    const releases = Object.values(NODE_RELEASES);
    for (const [i, version] of releases.entries()) {
      const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
      const admits = (other: string) => semver.satisfies(other, range);
      expect(admits(version), version).toBe(true);
      expect(admits(`${major}.${minor + 1}.0`), `${major}.${minor + 1}.0`).toBe(true);
      const older = patch > 0 ? `${major}.${minor}.${patch - 1}` : `${major}.${minor - 1}.99`;
      expect(admits(older), older).toBe(false);
      // The odd line after each but the newest is never tested; after the newest, engines stays open.
      expect(admits(`${major + 1}.0.0`), `${major + 1}.0.0`).toBe(i === releases.length - 1);
    }
    expect(semver.satisfies('20.19.0', range)).toBe(false);
  });
});

describe('TypeScript majors', () => {
  it("the package lane checks the tarball's declarations under TypeScript 5.9, 6 and 7, each a release of its major", () => {
    expect([...TYPESCRIPT_MAJORS]).toEqual(SUPPORTED_TYPESCRIPT);
    for (const [major, version] of Object.entries(TYPESCRIPT_RELEASES))
      expect(semver.valid(version) && version.startsWith(`${major}.`), `${major}: ${version}`).toBe(true);
    // Each is installed into the scratch project that tarball.test.ts type-checks the entries in.
    expect(typescriptSpecs()).toEqual(
      SUPPORTED_TYPESCRIPT.map(
        (major) => `typescript-${major}@npm:typescript@${TYPESCRIPT_RELEASES[major as TypeScriptMajor]}`,
      ),
    );
  });

  it('the 5.9 the package lane checks under is the one the repository compiles with', () => {
    const installed = json('node_modules/typescript/package.json').version as string;
    expect(TYPESCRIPT_RELEASES['5.9']).toBe(installed);
  });
});

describe('what the docs promise', () => {
  const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
  const unreleased = () => read('CHANGELOG.md').split(/^## /m)[1]!;

  it('docs/server.md names every supported Node line from its tested release; CONTRIBUTING.md names the lines and TypeScript majors', () => {
    const server = read('docs/server.md');
    for (const [major, version] of Object.entries(NODE_RELEASES))
      expect(server, `Node ${major}`).toContain(`${major} (${version} or later)`);
    const contributing = read('CONTRIBUTING.md');
    expect(contributing).toContain(
      `every maintained line, ${MAINTAINED_NODE.slice(0, -1).join(', ')} and ${MAINTAINED_NODE.at(-1)}`,
    );
    expect(contributing).toContain(
      `TypeScript ${SUPPORTED_TYPESCRIPT.slice(0, -1).join(', ')} and ${SUPPORTED_TYPESCRIPT.at(-1)}`,
    );
  });

  it("CHANGELOG.md's Unreleased section names the supported Node releases and TypeScript majors", () => {
    const section = unreleased();
    expect(section.startsWith('[Unreleased]')).toBe(true);
    for (const version of Object.values(NODE_RELEASES)) expect(section).toContain(version);
    expect(section).toContain(
      `TypeScript ${SUPPORTED_TYPESCRIPT.slice(0, -1).join(', ')} and ${SUPPORTED_TYPESCRIPT.at(-1)}`,
    );
  });
});

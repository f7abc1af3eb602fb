// The release step's rules (scripts/release.mjs): the version it moves to, and CHANGELOG.md's section for it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nextVersion, withReleaseSection } from '../../scripts/release.mjs';

describe('npm run release', () => {
  it('moves to the next patch, minor or major, or to a version named, never back', () => {
    expect(['patch', 'minor', 'major', '1.0.0'].map((bump) => nextVersion('0.1.0', bump))).toEqual([
      '0.1.1',
      '0.2.0',
      '1.0.0',
      '1.0.0',
    ]);
    expect(() => nextVersion('0.1.0', '0.1.0')).toThrow('0.1.0 is not after the current version 0.1.0');
    expect(() => nextVersion('0.1.0', 'soon')).toThrow('"soon" is neither patch, minor, major nor a version');
  });

  it("puts the Unreleased entries under the version's heading, and leaves an empty Unreleased above", () => {
    const changelog = '# Changelog\n\n## [Unreleased]\n\n### Added\n- A thing.\n\n## [0.1.0]\n\n- The first.\n';
    expect(withReleaseSection(changelog, '0.2.0', '2026-11-28')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-11-28\n\n### Added\n- A thing.\n\n## [0.1.0]\n\n- The first.\n',
    );
    // CHANGELOG.md as it is takes a release.
    expect(withReleaseSection(readFileSync('CHANGELOG.md', 'utf8'), '0.2.0', '2026-11-28')).toContain(
      '## [Unreleased]\n\n## [0.2.0] - 2026-11-28\n',
    );
  });

  it('refuses a release with nothing under Unreleased, or a changelog without the heading', () => {
    expect(() => withReleaseSection('## [Unreleased]\n\n### Added\n\n## [0.1.0]\n- x\n', '0.2.0', 'd')).toThrow(
      'nothing under Unreleased',
    );
    expect(() => withReleaseSection('# Changelog\n', '0.2.0', 'd')).toThrow('no "## [Unreleased]" heading');
  });
});

// The README's CDN tag names a release: the release step writes it (`npm run release`), a build leaves it as
// it is, and the docs lane checks that it names this version and reads its integrity value from that
// version's `.sri` file rather than pinning one (a pinned value is right only at the commit of a release).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cdnScript, cdnTagProblems, withRegions } from '../../scripts/doc-regions.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const block = (lines: string[]) => `<!-- generated: cdn-script-tag -->\n\`\`\`html\n${lines.join('\n')}\n\`\`\``;
const tag = (at: string, integrity = '') =>
  block([
    `<!-- integrity: the sha384-… line of ${cdnScript(at)}.sri -->`,
    `<script src="${cdnScript(at)}" integrity="${integrity}" crossorigin="anonymous" defer></script>`,
  ]);

describe('the CDN tag of the README', () => {
  it('is left as it is by a refresh of the regions: only the release step writes it', () => {
    const doc = tag('0.0.1');
    expect(withRegions(doc)).toBe(doc);
  });

  it('the release step writes it for package.json version, and the docs lane accepts what it writes', () => {
    const written = withRegions(tag('0.0.1'), { release: true });
    expect(written).toBe(tag(version));
    expect(cdnTagProblems(written)).toEqual([]);
    expect(cdnTagProblems(readFileSync('README.md', 'utf8'))).toEqual([]);
  });

  it('fails the docs lane when it names another version, pins a value, or stops saying where the value is', () => {
    expect(cdnTagProblems(tag('0.0.1'))).toEqual([
      `the CDN tag does not name hub-embed@${version}`,
      `the CDN tag does not say to read ${cdnScript(version)}.sri`,
    ]);
    expect(cdnTagProblems(tag(version, `sha384-${'A'.repeat(64)}`))).toEqual([
      'the CDN tag pins an integrity value, right only at the commit of a release',
    ]);
    expect(cdnTagProblems(block([`<script src="${cdnScript(version)}" defer></script>`]))).toEqual([
      `the CDN tag does not say to read ${cdnScript(version)}.sri`,
    ]);
  });
});

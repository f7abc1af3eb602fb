// The README's CDN tag names a release: the release step writes it (`npm run release:readme`), a build
// leaves it as it is, and the docs lane checks only that it names this version with a sha384 integrity.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cdnTagProblems, withRegions } from '../../scripts/doc-regions.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const tag = (at: string, integrity: string) =>
  `<!-- generated: cdn-script-tag -->\n\`\`\`html\n<script\n  src="https://cdn.jsdelivr.net/npm/hub-embed@${at}/dist/hub-embed.iife.js"\n  integrity="${integrity}"\n></script>\n\`\`\``;
const SHA384 = `sha384-${'A'.repeat(64)}`;

describe('the CDN tag of the README', () => {
  it('is left as it is by a refresh of the regions: only the release step writes it', () => {
    const doc = tag('0.0.1', 'sha384-old');
    expect(withRegions(doc)).toBe(doc);
  });

  it('must name package.json version with a sha384 integrity, else the docs lane fails', () => {
    expect(cdnTagProblems(tag(version, SHA384))).toEqual([]);
    expect(cdnTagProblems(tag('0.0.1', SHA384))).toEqual([`the CDN tag does not name hub-embed@${version}`]);
    expect(cdnTagProblems(tag(version, 'sha256-abc'))).toEqual(['the CDN tag has no sha384 integrity']);
    expect(cdnTagProblems(readFileSync('README.md', 'utf8'))).toEqual([]);
  });
});

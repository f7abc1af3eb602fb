// npm users read the shipped docs, which point into examples/ and test/fixtures/: files the package does not
// ship. npm resolves those relative links against `repository`, and `homepage` takes a reader to the rest.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  repository?: { type?: string; url?: string };
  homepage?: string;
  files: string[];
};

describe('package.json leads npm users to what the docs point to', () => {
  it('names its git repository and a homepage', () => {
    expect(pkg.repository?.type).toBe('git');
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/\S+\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\/\S+#readme$/);
  });

  it('the shipped docs link to examples and vectors the package does not ship, so the repository is needed', () => {
    // Each native host's page links to its files in examples/.
    for (const host of ['ios', 'android', 'flutter', 'wechat']) {
      const page = readFileSync(new URL(`../../docs/webview-${host}.md`, import.meta.url), 'utf8');
      expect(page, host).toMatch(/\]\(\.\.\/examples\//);
    }
    expect(pkg.files).not.toContain('examples');
  });
});

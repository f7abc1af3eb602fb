import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED, consoleBundleModule } from '../../scripts/console-bundle.mjs';
import { CONSOLE_CSP } from '../../packages/hub-embed-mock/src/console-page.js';
import { newHub } from './helpers.js';

describe('the console web page (/console/)', () => {
  it('the served console script is the bundle of the current packages/hub-embed-mock/src/console-ui sources (node scripts/console-bundle.mjs)', async () => {
    const current = readFileSync(GENERATED, 'utf8') === (await consoleBundleModule());
    expect(
      current,
      'packages/hub-embed-mock/src/console-ui/bundle.generated.ts is stale: run node scripts/console-bundle.mjs',
    ).toBe(true);
  }, 60_000);

  it('the generated bundle is built, never committed, and declares a string, not its 47 KB literal type', () => {
    const tracked = execFileSync('git', ['ls-files', 'src', 'packages'], { encoding: 'utf8' }).split('\n');
    expect(tracked.filter((file) => file.includes('.generated.'))).toEqual([]);
    expect(readFileSync(GENERATED, 'utf8')).toMatch(/^export const CONSOLE_SCRIPT: string = /m);
  });

  it('is served in process too, with a strict CSP: no inline script or style, no framing, no eval', async () => {
    const hub = newHub();
    const page = await hub.fetch(`${hub.baseUrl}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).not.toMatch(/unsafe-|\*/);
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('<script src="/console/app.js" defer></script>');
    expect(html).not.toMatch(/<script>|<style|style=/);
    const script = await hub.fetch(`${hub.baseUrl}/console/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await script.text();
    expect(code).toContain('hub-console');
    expect(code).not.toMatch(/\beval\(|new Function\(/);
  });

  it('--no-console (console: false) removes the page as well as the endpoints', async () => {
    const hub = newHub({ console: false });
    expect((await hub.fetch(`${hub.baseUrl}/console/`)).status).toBe(404);
    expect((await hub.fetch(`${hub.baseUrl}/console/app.js`)).status).toBe(404);
  });
});

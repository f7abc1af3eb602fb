// The build's own transforms of its output (vite.config.ts lists them in their order): each parses what it
// rewrites, and each rule is checked here on a script of a few tokens.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { asciiScript } from '../../build/ascii-only.ts';
import { secondCopyGuard } from '../../build/second-copy-guard.ts';

describe('asciiScript: the <script> bundles are pure ASCII', () => {
  it('escapes a character beyond ASCII in a string, a template and a regular expression, to the same value', () => {
    const code = 'var a="表",b=`<b>表</b>${a}`,c=/é+/u;globalThis.out=[a,b,c.test("éé")];';
    const ascii = asciiScript(code);
    expect(ascii).toMatch(/^[\x00-\x7f]*$/);
    expect(ascii).toContain('"\\u8868"');
    expect(ascii).toContain('`<b>\\u8868</b>${a}`');
    // Each in a context of its own, as a page runs a script.
    const run = (source: string) => runInNewContext(`${source};globalThis.out`) as unknown;
    expect(run(ascii)).toEqual(run(code));
  });

  it('leaves a script already ASCII as it is', () => {
    const code = 'var a=1/2/3,b=`x${a}y`;if(a)return a';
    expect(asciiScript(code)).toBe(code);
  });

  it('fails, naming the file, on a character beyond ASCII outside a string, a template or a regular expression', () => {
    expect(() => asciiScript('var é=1', 'x.js')).toThrow(/x\.js: a character beyond ASCII in a name/);
    expect(() => asciiScript('var a=1/*é*/', 'x.js')).toThrow(/x\.js: a character beyond ASCII/);
  });

  it('fails on a backslash before a character beyond ASCII, whose escape would mean another string', () => {
    expect(() => asciiScript('var a="\\é"')).toThrow(/backslash/);
  });
});

describe('secondCopyGuard: a second copy of the same version does nothing', () => {
  // The bundler puts the guard first in the script's function; this stands in for that function.
  const bundle =
    (version: string) =>
    (self: { HubEmbed?: { version: string }; ran?: number }): { version: string } =>
      runInNewContext(
        `(function () {\n${secondCopyGuard(version)}\nself.ran = (self.ran ?? 0) + 1;\nreturn { version: ${JSON.stringify(version)} };\n})()`,
        { self },
      ) as { version: string };

  it('the first copy runs and gives the global; the same version again returns that global and runs nothing', () => {
    const page: { HubEmbed?: { version: string }; ran?: number } = {};
    page.HubEmbed = bundle('1.0.0')(page);
    const first = page.HubEmbed;
    page.HubEmbed = bundle('1.0.0')(page);
    expect(page.HubEmbed).toBe(first);
    expect(page.ran).toBe(1);
  });

  it('another version runs (its define() then says the tags are taken)', () => {
    const page: { HubEmbed?: { version: string }; ran?: number } = {};
    page.HubEmbed = bundle('1.0.0')(page);
    page.HubEmbed = bundle('2.0.0')(page);
    expect(page.ran).toBe(2);
    expect(page.HubEmbed.version).toBe('2.0.0');
  });
});

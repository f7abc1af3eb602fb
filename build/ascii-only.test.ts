// build/ascii-only.ts: the <script> bundles' escapes, written in the tokens of the chunk as acorn parses it.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { asciiScript } from './ascii-only.ts';

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

  it('escapes an emoji (two UTF-16 units) and U+2028 in strings and templates to the same value', () => {
    const code = 'globalThis.out=["😀\u2028x",`a${1}😀\u2029`,"`${x}`"];';
    const ascii = asciiScript(code);
    expect(ascii).toMatch(/^[\x00-\x7f]*$/);
    expect(ascii).toContain('\\ud83d\\ude00');
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

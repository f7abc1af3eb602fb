// build/terser-pass.ts: Terser parses each chunk and minifies it again; the chunk does what it did.
import { runInNewContext } from 'node:vm';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { terserPass } from './terser-pass.ts';

type Bundle = Record<string, Partial<Rolldown.OutputChunk> | Partial<Rolldown.OutputAsset>>;
const generateBundle = terserPass.generateBundle as (options: unknown, bundle: Bundle) => Promise<void>;

describe('terserPass', () => {
  it('minifies each chunk to code that gives the same result, and leaves assets alone', async () => {
    const code =
      'function twice(value) { return value + value; }\nvar out = [twice("表`${x}`\\u2028"), `a${1}b`, "</script>"];\nglobalThis.out = out;';
    const bundle: Bundle = {
      'a.js': { type: 'chunk', fileName: 'a.js', code, map: null },
      'a.css': { type: 'asset', fileName: 'a.css', source: 'p {  }' },
    };
    await generateBundle({}, bundle);
    const chunk = bundle['a.js'] as Rolldown.OutputChunk;
    expect(chunk.code.length).toBeLessThan(code.length);
    const run = (source: string) => runInNewContext(`${source};globalThis.out`) as unknown;
    expect(run(chunk.code)).toEqual(run(code));
    expect((bundle['a.css'] as Rolldown.OutputAsset).source).toBe('p {  }');
  });

  it('fails on a chunk that does not parse, rather than pass text through', async () => {
    const bundle: Bundle = { 'a.js': { type: 'chunk', fileName: 'a.js', code: 'var a = `', map: null } };
    await expect(generateBundle({}, bundle)).rejects.toThrow();
  });
});

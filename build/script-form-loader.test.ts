// build/script-form-loader.ts: in the <script> bundles, the form half's loader is the classic-script one.
import { describe, expect, it } from 'vitest';
import { scriptFormLoader } from './script-form-loader.ts';

const resolveId = scriptFormLoader.resolveId as (source: string, importer?: string) => Promise<string | null>;

describe('scriptFormLoader', () => {
  it("resolves the loader's import to the classic-script loader beside it", async () => {
    expect(await resolveId('./form-opener-loader.js', '/repo/src/components/hub-embed/hub-embed.ts')).toBe(
      '/repo/src/components/hub-embed/form-opener-loader.script.ts',
    );
  });

  it("resolves the texts loader's import to the one that takes the tables from the later half's script", async () => {
    expect(await resolveId('./texts-loader.js', '/repo/src/components/base.ts')).toBe(
      '/repo/src/components/texts-loader.script.ts',
    );
  });

  it('leaves every other import, and an entry, to the bundler', async () => {
    expect(await resolveId('./form-opener.js', '/repo/src/components/hub-embed/hub-embed.ts')).toBeNull();
    expect(await resolveId('./form-opener-loader.js')).toBeNull();
  });
});

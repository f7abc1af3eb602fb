// The <script> builds' form half (dist/hub-embed.form.js) takes what it shares with the main file from one
// module, its imports module (src/components/form-half-imports.ts): checked here through the bundler, by
// building the half with vite.config.ts's own settings, as it is and with one import added.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, loadConfigFromFile, type Plugin, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The form half built in memory; `extra` appends source lines to the module whose path ends with `file`. */
async function buildFormHalf(extra?: { file: string; lines: string }): Promise<Rolldown.OutputChunk> {
  const loaded = await loadConfigFromFile(
    { command: 'build', mode: 'form-chunk', isSsrBuild: false, isPreview: false },
    `${ROOT}vite.config.ts`,
    ROOT,
    'silent',
  );
  if (!loaded) throw new Error('vite.config.ts did not load.');
  const { config } = loaded;
  const added: Plugin = {
    name: 'test-added-import',
    enforce: 'pre',
    transform: (code, id) => (extra && id.endsWith(extra.file) ? `${code}\n${extra.lines}\n` : null),
  };
  const result = await build({
    ...config,
    configFile: false,
    root: ROOT,
    mode: 'form-chunk',
    logLevel: 'silent',
    plugins: [added, ...(config.plugins ?? [])],
    build: { ...config.build, write: false },
  });
  const outputs = Array.isArray(result) ? result : [result];
  const chunks = outputs.flatMap((output) => ('output' in output ? output.output : []));
  const chunk = chunks.find((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  if (!chunk) throw new Error('The form half build made no chunk.');
  return chunk;
}

describe('the form half and its imports module', () => {
  it("bundles only the half's own modules and imports no module: what it shares, it reads from the imports module", async () => {
    const chunk = await buildFormHalf();
    const modules = chunk.moduleIds.filter((id) => !id.startsWith('\0rolldown')).map((id) => relative(ROOT, id));
    expect(modules.sort()).toEqual(
      [
        '\0hub-embed:form-half-imports',
        'src/components/hub-embed/form-opener.styles.ts',
        'src/components/hub-embed/form-opener.ts',
        'src/components/hub-embed/form-preparer.ts',
        'src/components/hub-form-frame/hub-form-frame.strings.ts',
        'src/components/hub-form-frame/hub-form-frame.styles.ts',
        'src/components/hub-form-frame/hub-form-frame.ts',
        // later-half.ts only re-exports: the bundler leaves it out of the chunk's modules.
        'src/components/hub-embed/later-half.script.ts',
        'src/components/hub-embed/lowercased-attributes.ts',
        'src/components/locales/ja.ts',
        'src/components/locales/ko.ts',
        'src/components/locales/other-locales.ts',
        'src/components/locales/zh-CN.ts',
        'src/components/locales/zh-TW.ts',
        'src/components/hub-embed/explain-failure.ts',
        'src/components/hub-embed/view-mismatch.ts',
        'src/components/hub-embed/first-view-handover.ts',
        'src/components/hub-embed/stale-cards.styles.ts',
        'src/components/hub-table-grid/draw-schedule.ts',
        'src/components/hub-table-grid/keep-place.ts',
        'src/components/hub-tag-filter/chip-keys.ts',
        'src/core/form-report.ts',
        'src/core/link-rules.ts',
        'src/core/loopback.ts',
        'src/core/paths.ts',
        'src/core/token-links.ts',
        'src/core/urls.ts',
      ].sort(),
    );
    expect(chunk.imports).toEqual([]);
    // The imports module's every name, from the global the main file's loader fills, and nothing else of the main file.
    expect(chunk.code).toContain('=globalThis.__hubEmbedFormImports;');
    expect(chunk.code.startsWith('var __hubEmbedFormHalf=')).toBe(true);
  });

  it('an import from outside the half other than its imports module fails the build, naming it (a second Lit)', async () => {
    await expect(
      buildFormHalf({
        file: 'src/components/hub-form-frame/hub-form-frame.ts',
        lines: "import { LitElement } from 'lit';\nexport const second = LitElement;",
      }),
    ).rejects.toThrow(/The form half imports lit \(from .*hub-form-frame\.ts\).*form-half-imports\.ts/s);
  });

  it("a module of the main file's, imported by a module of the half, fails the build", async () => {
    await expect(
      buildFormHalf({
        file: 'src/components/hub-embed/form-opener.ts',
        lines: "import { arrayOf } from '../base.js';\nexport const copied = arrayOf;",
      }),
    ).rejects.toThrow(/The form half imports \.\.\/base\.js/);
  });

  it("a name the half's copy of core takes from core that the imports module does not lend fails the build", async () => {
    await expect(
      buildFormHalf({
        file: 'src/core/urls.ts',
        lines: "import { isHubError } from './errors.js';\nexport const missing = isHubError;",
      }),
    ).rejects.toThrow(/isHubError.*not exported|MISSING_EXPORT/s);
  });
});

/**
 * The <script> bundles built again inside the bench, from vite.config.ts's own settings and plugins, in
 * two variants the real build does not make:
 *
 * - the form half inside the first file, as before issue 25: built without the plugin that swaps in the
 *   classic-script loader (`hub-embed-script-form-loader`), so the ES loader (form-opener-loader.ts) stays
 *   and an IIFE build inlines its dynamic import;
 * - some modules left out (Lit, for the "own code" size), as globals that do not count.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, loadConfigFromFile, type PluginOption } from 'vite';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The plugin of vite.config.ts that makes the <script> bundles load their form half as a second file. */
export const SCRIPT_FORM_LOADER_PLUGIN = 'hub-embed-script-form-loader';

export type BundleKind = 'plain' | 'webview';

const MODES: Record<BundleKind, { mode: string; file: string }> = {
  plain: { mode: 'iife', file: 'hub-embed.iife.js' },
  webview: { mode: 'iife-webview', file: 'hub-embed-webview.iife.js' },
};

function pluginName(plugin: PluginOption): string | undefined {
  return plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : undefined;
}

export interface ScriptBuildOptions {
  /** 'inside': one file, as before issue 25; 'apart': the first file as `npm run build` makes it. */
  formHalf: 'inside' | 'apart';
  /** Modules left out of the file (their imports become globals). */
  external?: RegExp[];
}

/** One <script> bundle built into a temp dir with the real config, returned as its bytes. */
export async function buildScriptFile(kind: BundleKind, options: ScriptBuildOptions): Promise<Buffer> {
  const { mode, file } = MODES[kind];
  const loaded = await loadConfigFromFile(
    { command: 'build', mode, isSsrBuild: false, isPreview: false },
    join(ROOT, 'vite.config.ts'),
    ROOT,
    'silent',
  );
  if (!loaded) throw new Error('vite.config.ts did not load.');
  const { config } = loaded;
  const plugins = (config.plugins ?? []).flat();
  if (!plugins.some((plugin) => pluginName(plugin) === SCRIPT_FORM_LOADER_PLUGIN))
    throw new Error(
      `vite.config.ts has no plugin named ${SCRIPT_FORM_LOADER_PLUGIN} in mode ${mode}: update bench/lib/script-build.ts.`,
    );
  const inside = options.formHalf === 'inside';
  const external = options.external ?? [];
  const rolldownOptions = config.build?.rolldownOptions ?? {};
  const output = Array.isArray(rolldownOptions.output) ? {} : (rolldownOptions.output ?? {});
  const outDir = mkdtempSync(join(tmpdir(), 'hub-bench-script-'));
  try {
    await build({
      ...config,
      configFile: false,
      root: ROOT,
      mode,
      logLevel: 'silent',
      plugins: inside ? plugins.filter((plugin) => pluginName(plugin) !== SCRIPT_FORM_LOADER_PLUGIN) : plugins,
      build: {
        ...config.build,
        outDir,
        emptyOutDir: true,
        rolldownOptions: {
          ...rolldownOptions,
          external,
          output: { ...output, globals: (id: string) => `Left_out_${id.replace(/\W/g, '_')}` },
        },
      },
    });
    const bytes = readFileSync(join(outDir, file));
    // The single file must not load a second one: the form half is inside it.
    if (inside && bytes.includes('.form.js'))
      throw new Error(`the single-file ${kind} bundle still names its .form.js; the loader swap changed.`);
    return bytes;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The same source with the form half inside the first file, as before issue 25. */
export function buildSingleFile(kind: BundleKind): Promise<Buffer> {
  return buildScriptFile(kind, { formHalf: 'inside' });
}

/**
 * Sizes: the built script bundle (its first file), the same file with Lit left out (our own code), and
 * Lit alone, each as gzip -9 and brotli q11 bytes. The two extra bundles are built here with vite's
 * build() API into a temp dir: our own code with the real config (its plugins, the form half apart as in
 * the real first file), Lit minified like the real IIFE, so the three rows are comparable.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { BUDGETS, limitOf, NPM_PATH_BUDGET, ROOM } from '../scripts/size-budgets.mjs';
import { viteAppFirstLoad } from '../scripts/vite-app-size.mjs';
import { readBundle } from './lib/page-server.js';
import { buildScriptFile } from './lib/script-build.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface SizeResults {
  bundle: Size;
  withoutLit: Size;
  litAlone: Size;
  /**
   * The npm path (scripts/vite-app-size.mjs): what `import 'hub-embed/define'` adds to a Vite app's first
   * load when the app has a lazy import of its own (its Lit and Vite's preload helper then count as the
   * widget's and the app's), and the first load of an app with none, which carries the helper for the widget.
   */
  npmPath: { withLazyImport: number; withoutLazyImport: number; limit: number };
  /**
   * The same entry built here with Lit included; equal to `bundle.raw` unless src/ changed after the
   * last `npm run build`, in which case the "without Lit" row describes newer sources than the bundle.
   */
  rebuiltRaw: number;
  references: { typeformGzip: number; calcomGzip: number; files: ReferenceFile[] };
}

export interface ReferenceFile {
  name: string;
  /** package@version as installed. */
  package: string;
  /** The file inside the package. */
  file: string;
  size: Size;
}

/**
 * The peers' embed scripts, measured from their npm packages (devDependencies, exact versions): the file a
 * page loads. Typeform's script tag loads embed.typeform.com/next/embed.js, the package's build/embed.js;
 * Cal.com's snippet loads app.cal.com/embed/embed.js, @calcom/embed-core's dist/embed/embed.js.
 */
const REFERENCE_FILES = [
  { name: 'Typeform', package: '@typeform/embed', file: 'build/embed.js' },
  { name: 'Cal.com', package: '@calcom/embed-core', file: 'dist/embed/embed.js' },
];

function measureReferences(): SizeResults['references'] {
  const files = REFERENCE_FILES.map((ref) => {
    const dir = join(ROOT, 'node_modules', ref.package);
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    return { ...ref, package: `${ref.package}@${version}`, size: sizeOf(readFileSync(join(dir, ref.file))) };
  });
  return { typeformGzip: files[0]!.size.gzip, calcomGzip: files[1]!.size.gzip, files };
}
/**
 * The most a first file may weigh (gzip -9): its budget less the room it keeps, as the build checks it
 * (scripts/size-budgets.mjs).
 */
export function firstFileLimit(bundle: 'plain' | 'webview'): { limit: number; budget: number } {
  const entry = BUDGETS.find((candidate) => candidate.bundle === bundle)!;
  return { limit: limitOf(entry), budget: entry.budget };
}

export function sizeOf(bytes: Uint8Array): Size {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

/**
 * One minified IIFE of `entry`, like dist/hub-embed.iife.js. IIFE rather than ES because vite keeps
 * whitespace in ES library builds.
 */
async function bundleSize(entry: string): Promise<Size> {
  const outDir = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'silent',
      // As the plain <script> bundle is built (vite.config.ts): no WebView bridge.
      define: { __HUB_EMBED_VERSION__: JSON.stringify('bench'), __HUB_EMBED_WITH_BRIDGE__: 'false' },
      build: {
        outDir,
        emptyOutDir: true,
        write: true,
        // As vite.config.ts builds the real IIFE: an older target would turn #private fields into WeakMaps.
        target: 'es2022',
        minify: true,
        sourcemap: false,
        lib: { entry, name: 'HubBench', formats: ['iife'], fileName: () => 'out.js' },
      },
    });
    const files = readdirSync(outDir).filter((f) => f.endsWith('.js'));
    if (files.length !== 1) throw new Error(`expected one bundle from ${entry}, got ${files.join(', ') || 'none'}`);
    return sizeOf(readFileSync(join(outDir, files[0]!)));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function measureSizes(): Promise<SizeResults> {
  const bundle = sizeOf(readBundle());
  const withoutLit = sizeOf(
    await buildScriptFile('plain', {
      formHalf: 'apart',
      external: [/^lit($|\/)/, /^@lit\//, /^lit-html($|\/)/, /^lit-element($|\/)/],
    }),
  );
  const litAlone = await bundleSize(join(ROOT, 'bench/lit-entry.ts'));
  // dist/hub-embed.iife.js built again from src/ with the real config, to tell a stale dist/ apart.
  const rebuiltRaw = (await buildScriptFile('plain', { formHalf: 'apart' })).length;
  const vite = await viteAppFirstLoad();
  const npmPath = { withLazyImport: vite.gzip, withoutLazyImport: vite.alone.gzip, limit: NPM_PATH_BUDGET - ROOM };
  return { bundle, withoutLit, litAlone, npmPath, rebuiltRaw, references: measureReferences() };
}

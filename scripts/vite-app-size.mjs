// What a Vite app ships on its first load for `import 'hub-embed/define'`: two pages built by Vite with its
// defaults, each from an index.html whose module loads one route of the app lazily (as most apps do), one of
// them also importing the package's ES build (dist/define.js). The figure is the difference of their first
// loads (the entry file and every file it imports statically, gzip -9): what the import adds. Vite's preload
// helper, which wraps every lazy import of an app, is in both, so it counts as the app's, as the module
// preload polyfill (left out of both) is. The form half, which hub-embed loads lazily, is left out, as the
// <script> bundle's first file leaves out its form half.
// The build (scripts/build.mjs) holds the first load of an app with no lazy import of its own, which carries
// the preload helper for hub-embed alone, to NPM_PATH_BUDGET (scripts/size-budgets.mjs). `node scripts/vite-app-size.mjs` prints the figures for the dist/ there is.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const APP = join(ROOT, 'node_modules/.cache/hub-embed-vite-app');
/** The app's own code: one route, loaded on a click. */
const ROUTE =
  "document.addEventListener('click', () => import('./route.js').then((route) => route.show()), { once: true });\n";

/** `{ files, bytes, gzip }` of the first load of an app whose module is `main` (each file gzipped on its own). */
async function firstLoad(main) {
  rmSync(APP, { recursive: true, force: true });
  mkdirSync(APP, { recursive: true });
  writeFileSync(join(APP, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
  writeFileSync(join(APP, 'main.js'), main);
  writeFileSync(join(APP, 'route.js'), "export const show = () => document.body.append('route');\n");
  try {
    const result = await build({
      configFile: false,
      root: APP,
      logLevel: 'silent',
      // The package as an app installs it: `hub-embed/define` is dist/define.js; Lit is the app's copy.
      resolve: { alias: { 'hub-embed/define': join(ROOT, 'dist/define.js') } },
      build: { write: false, modulePreload: { polyfill: false } },
    });
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) => item.output);
    const chunks = new Map(outputs.filter((item) => item.type === 'chunk').map((chunk) => [chunk.fileName, chunk]));
    const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
    if (!entry) throw new Error('The Vite app build made no entry chunk.');
    const files = [];
    const visit = (name) => {
      if (files.includes(name)) return;
      files.push(name);
      for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
    };
    visit(entry.fileName);
    const code = files.map((name) => Buffer.from(chunks.get(name).code));
    return {
      files,
      bytes: code.reduce((sum, bytes) => sum + bytes.length, 0),
      gzip: code.reduce((sum, bytes) => sum + gzipSync(bytes, { level: 9 }).length, 0),
    };
  } finally {
    rmSync(APP, { recursive: true, force: true });
  }
}

/**
 * What `import 'hub-embed/define'` adds to a Vite app's first load: `{ bytes, gzip }`, and `alone`, the first
 * load of an app with no lazy route of its own, which carries Vite's preload helper for hub-embed alone.
 */
export async function viteAppFirstLoad() {
  const app = await firstLoad(ROUTE);
  const withWidget = await firstLoad(`import 'hub-embed/define';\n${ROUTE}`);
  const alone = await firstLoad("import 'hub-embed/define';\n");
  return { bytes: withWidget.bytes - app.bytes, gzip: withWidget.gzip - app.gzip, alone };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { bytes, gzip, alone } = await viteAppFirstLoad();
  console.log(`import 'hub-embed/define' adds ${bytes} bytes, ${gzip} bytes gzip -9 to a Vite app's first load`);
  console.log(
    `an app with no lazy import of its own: ${alone.bytes} bytes, ${alone.gzip} bytes gzip -9 (with Vite's preload helper)`,
  );
}

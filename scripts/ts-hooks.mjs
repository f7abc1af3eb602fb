// Module hooks behind scripts/ts-register.mjs: `.js` specifiers in our sources resolve to their `.ts`
// files, and each `.ts` file is compiled with `transformWithOxc`, Vite's public JavaScript API (Vite is a
// direct devDependency), reading tsconfig.json as the build and vitest do.
// Why not tsx: it compiles with esbuild's keepNames, which wraps inner functions in `__name(...)`; a
// function the e2e tests and the bench hand to `page.evaluate` then fails in the page with
// "ReferenceError: __name is not defined" (measured: bench/run.ts --smoke).
// Each compiled file is kept in node_modules/.cache/hub-embed-ts/, named by a hash of everything the output
// depends on (this file, the version, the tsconfig.json files, the path and the source), and Vite is imported only
// when a file is not there: a process started again on unchanged sources (the CLI tests start the simulator
// about 50 times) skips Vite's half-second import and every transform.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const CACHE = fileURLToPath(new URL('../node_modules/.cache/hub-embed-ts/', import.meta.url));
/** What every output depends on besides its own path and source. */
const salt = createHash('sha256')
  .update(readFileSync(new URL(import.meta.url)))
  .update(version)
  .update(readFileSync(new URL('../tsconfig.json', import.meta.url)))
  .update(readFileSync(new URL('../examples/tsconfig.json', import.meta.url)))
  .digest('hex');

/** `source` (of `path`) compiled to JavaScript, from the cache when it holds this exact input. */
async function compile(path, source) {
  const key = createHash('sha256').update(salt).update(path).update('\0').update(source).digest('hex');
  const cached = `${CACHE}${key}.js`;
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // Not compiled yet.
  }
  const { transformWithOxc } = await import('vite');
  // transformWithOxc throws an Error listing the file's syntax errors.
  const { code } = await transformWithOxc(source, path, {
    sourcemap: false,
    tsconfig: true,
    typescript: { onlyRemoveTypeImports: false },
    // As vite.config.ts defines them for the ES build (src/globals.d.ts).
    define: { __HUB_EMBED_VERSION__: JSON.stringify(version), __HUB_EMBED_WITH_BRIDGE__: 'true' },
  });
  // Written under a private name first and renamed, so a process running beside this one never reads half a file.
  mkdirSync(CACHE, { recursive: true });
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, code);
  renameSync(partial, cached);
  return code;
}

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (
    parent?.startsWith('file:') &&
    !parent.includes('/node_modules/') &&
    /^\.{1,2}\//.test(specifier) &&
    specifier.endsWith('.js')
  ) {
    const tsUrl = new URL(specifier.slice(0, -3) + '.ts', parent);
    if (existsSync(fileURLToPath(tsUrl))) return { url: tsUrl.href, shortCircuit: true, format: 'module' };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/')) {
    const path = fileURLToPath(url);
    return { format: 'module', source: await compile(path, await readFile(path, 'utf8')), shortCircuit: true };
  }
  return nextLoad(url, context);
}

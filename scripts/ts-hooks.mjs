// Module hooks behind scripts/ts-register.mjs: `.js` specifiers in our sources resolve to their `.ts`
// files, and each `.ts` file is compiled with `transformWithOxc`, Vite's public JavaScript API (Vite is a
// direct devDependency), reading tsconfig.json as the build and vitest do.
// Why not tsx: it compiles with esbuild's keepNames, which wraps inner functions in `__name(...)`; a
// function the e2e tests and the bench hand to `page.evaluate` then fails in the page with
// "ReferenceError: __name is not defined" (measured: bench/run.ts --smoke).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

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
    // transformWithOxc throws an Error listing the file's syntax errors.
    const { code } = await transformWithOxc(await readFile(path, 'utf8'), path, {
      sourcemap: false,
      tsconfig: true,
      typescript: { onlyRemoveTypeImports: false },
      define: { __HUB_EMBED_VERSION__: JSON.stringify(version) },
    });
    return { format: 'module', source: code, shortCircuit: true };
  }
  return nextLoad(url, context);
}

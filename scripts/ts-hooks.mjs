import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'rolldown/experimental';

const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

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
    const source = await readFile(path, 'utf8');
    const result = transformSync(path, source, {
      sourcemap: false,
      typescript: { onlyRemoveTypeImports: false },
      define: { __HUB_EMBED_VERSION__: JSON.stringify(version) },
    });
    if (result.errors?.length) throw new Error(`${path}: ${result.errors.map((e) => e.message).join('; ')}`);
    return { format: 'module', source: result.code, shortCircuit: true };
  }
  return nextLoad(url, context);
}

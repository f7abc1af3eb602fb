// What the built files may import and carry. Every .js file of a package directory (dist/ by default)
// imports only the package's own files, its dependencies, its peer dependencies (with subpaths) and
// `node:` built-ins, and carries no third-party module of its own: an app's bundler must find each
// third-party module once, in the app's node_modules. A copy inside dist/ is a second module; for
// react-native-safe-area-context it is a second registration of the native view RNCSafeAreaView, which
// React Native refuses ("Tried to register two views with the same name").
// `npm run build` ends with this check; test/shipped/dist-imports.test.ts runs it on dist/ and the tarball.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Names a built file may import besides its own package's files: dependencies and peer dependencies. */
export function declaredPackages(pkg) {
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
}

/** Whether `specifier` names one of `packages` or a subpath of one (`react-native/Libraries/…`). */
export function isDeclared(specifier, packages) {
  return packages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

// The classic <script> bundles carry
// Lit, a dependency, on purpose: a page that loads one script has no module resolution to share it. They
// import nothing; the checks of inlined code below still apply to them.
const IMPORTS = [
  // import x from 'a'; import { x } from 'a'; import * as x from 'a'; import 'a'
  /(?:^|[\n;])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?(["'])([^"'\n]+)\1/g,
  // export { x } from 'a'; export * from 'a'; export * as x from 'a'
  /(?:^|[\n;])\s*export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(["'])([^"'\n]+)\1/g,
  // import('a'), require('a')
  /\b(?:import|require)\s*\(\s*(["'`])([^"'`\n]+)\1\s*\)/g,
];

/** Every module specifier `code` imports, statically or dynamically, or requires. */
export function importsOf(code) {
  return [...new Set(IMPORTS.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[2])))];
}

/** Signs of a third-party module's code inside a built file, with what each one means. */
export const INLINED = [
  // Rolldown heads each module it bundles with its path: `// node_modules/react-native-safe-area-context/…`.
  [/node_modules\//, 'a module from node_modules'],
  // Native views are registered by the packages that own them (react-native-webview, react-native-safe-area-context).
  [/\b(?:codegenNativeComponent|requireNativeComponent|registerNativeComponent)\b/, 'a native view registration'],
  [/\bRNC(?:SafeArea\w*|WebView\w*)\b/, 'a native view name of react-native-safe-area-context or react-native-webview'],
  // Licence banners travel with bundled third-party code; this package's own files carry none.
  [/@license\b|@preserve\b|\bSPDX-License-Identifier\b|\bCopyright \(c\)/i, 'a licence banner'],
];

/** Every .js file under `dir`, relative to it. */
function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .sort();
}

/**
 * The problems of the package in `packageDir` (its package.json and the .js files under `distDir`,
 * default dist/): imports of anything it does not declare, relative imports of files it does not have,
 * and third-party code inlined. An empty list when all is well.
 */
export function distImportProblems(packageDir, distDir = 'dist') {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const packages = declaredPackages(pkg);
  const dist = resolve(packageDir, distDir);
  const problems = [];
  for (const file of jsFiles(dist)) {
    const path = join(dist, file);
    const name = relative(packageDir, path);
    const code = readFileSync(path, 'utf8');
    for (const specifier of importsOf(code)) {
      if (specifier.startsWith('./') || specifier.startsWith('../')) {
        const target = resolve(dirname(path), specifier);
        if (!target.startsWith(resolve(packageDir) + sep) || !existsSync(target))
          problems.push(`${name} imports ${specifier}, which is not a file of the package`);
      } else if (specifier.startsWith('node:')) continue;
      else if (specifier === pkg.name || specifier.startsWith(`${pkg.name}/`)) continue;
      else if (!isDeclared(specifier, packages))
        problems.push(`${name} imports ${specifier}, which is neither a dependency nor a peer dependency`);
    }
    for (const [pattern, what] of INLINED) {
      const match = pattern.exec(code);
      if (match) {
        const line = code.slice(0, match.index).split('\n').length;
        problems.push(`${name}:${line} carries ${what} (${JSON.stringify(match[0])})`);
      }
    }
  }
  return problems;
}

// `node scripts/dist-imports.mjs [packageDir]`: exits 1 with the problems listed.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const packageDir = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  const problems = distImportProblems(packageDir);
  if (problems.length) {
    console.error(`The built files import or carry what the package does not declare:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('dist/ imports only the package, its dependencies, its peer dependencies and node: built-ins.');
}

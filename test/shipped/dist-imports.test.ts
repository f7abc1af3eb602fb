// Every dist entry imports only what the package declares (issue 43 item 3): the package's own files, its
// dependencies, its peer dependencies (with subpaths) and `node:` built-ins; no third-party module is
// inlined. Runs on the built dist/ and on the packed tarball (`npm run ci -- package` builds first);
// scripts/dist-imports.mjs is the check, which `npm run build` also ends with.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { toAscii } from '../../build/ascii-only.ts';
import { declaredPackages, distImportProblems, importsOf } from '../../scripts/dist-imports.mjs';
import { NO_HOST_TEXTS } from '../../src/webview/host-link.js';
import { pkg, ROOT, run, tarball } from './apps.js';

const scratch = mkdtempSync(join(tmpdir(), 'hub-embed-dist-imports-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The code of an ES entry of dist/ and of every file of dist/ it imports statically, and with `lazily` also
 * those it imports with import().
 */
function graph(entry: string, lazily: boolean, seen = new Set<string>()): string {
  if (seen.has(entry)) return '';
  seen.add(entry);
  const code = readFileSync(join(ROOT, 'dist', entry), 'utf8');
  const lazy = lazily ? [] : [...code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
  const own = importsOf(code).filter((specifier) => specifier.startsWith('./') && !lazy.includes(specifier));
  return code + own.map((specifier) => graph(specifier.slice(2), lazily, seen)).join('');
}

describe('what dist/ imports and carries', () => {
  it("every .js file of dist/ imports only the package's files, its dependencies, its peers and node: built-ins, and inlines no third-party module", () => {
    assert.deepEqual(distImportProblems(ROOT), []);
  });

  it('so does every .js file of the packed tarball', () => {
    const unpacked = join(scratch, 'unpacked');
    mkdirSync(unpacked);
    const untar = run('tar', ['-xzf', tarball().tarball, '-C', unpacked], ROOT);
    assert.equal(untar.status, 0, untar.out);
    assert.deepEqual(distImportProblems(join(unpacked, 'package')), []);
  });

  it('every peer stays external: hub-embed/react-native imports react-native-safe-area-context and registers no native view', () => {
    const code = readFileSync(join(ROOT, 'dist/react-native.js'), 'utf8');
    const imports = importsOf(code);
    for (const peer of ['react', 'react-native', 'react-native-webview', 'react-native-safe-area-context'])
      assert.ok(imports.includes(peer), `dist/react-native.js imports ${peer}: ${imports.join(', ')}`);
    assert.doesNotMatch(code, /RNCSafeAreaView|codegenNativeComponent|node_modules/);
  });

  it("the no-host error's texts ship with the bridge only: in the WebView bundle and hub-embed/webview, not in the plain bundle nor in hub-embed/define's modules", () => {
    // As written, or as the <script> bundles write a non-ASCII character.
    const texts = Object.values(NO_HOST_TEXTS).map(({ 'no-host': text }) => [text, toAscii(text)]);
    const holds = (code: string, [text, ascii]: string[]) => code.includes(text!) || code.includes(ascii!);
    const bundle = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    for (const text of texts) {
      assert.ok(holds(bundle('hub-embed-webview.iife.js'), text), text[0]);
      assert.ok(holds(graph('webview.js', true), text), text[0]);
      assert.ok(!holds(bundle('hub-embed.iife.js'), text), text[0]);
      assert.ok(!holds(graph('define.js', true), text), text[0]);
    }
  });

  it("the lowercased-attributes setup error comes with the form half only: out of hub-embed/define's first load and of both <script> bundles' first files", () => {
    const text = 'arrived as lowercased attributes';
    const define = graph('define.js', false);
    assert.ok(!define.includes(text), "not in hub-embed/define's first load");
    // The form half, which hub-embed/define imports lazily (and the <script> bundles load as a file of their own).
    const lazy = [...define.matchAll(/\bimport\s*\(\s*["']\.\/(later-half-[\w-]+\.js)["']\s*\)/g)].map((m) => m[1]!);
    assert.equal(lazy.length, 1, 'dist/define.js imports the form half lazily, once');
    assert.ok(readFileSync(join(ROOT, 'dist', lazy[0]!), 'utf8').includes(text), `${lazy[0]} holds it`);
    assert.ok(
      readFileSync(join(ROOT, 'dist/hub-embed.form.js'), 'utf8').includes(text),
      'the <script> form half holds it',
    );
    for (const bundle of ['hub-embed.iife.js', 'hub-embed-webview.iife.js'])
      assert.ok(!readFileSync(join(ROOT, 'dist', bundle), 'utf8').includes(text), bundle);
  });

  it('the declared names are read from package.json: its dependencies and peer dependencies', () => {
    assert.deepEqual(
      declaredPackages(pkg).sort(),
      [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].sort(),
    );
  });

  it('reads static, re-exported, dynamic and required imports', () => {
    const code = [
      `import a from "pkg-a";`,
      `import { b } from 'pkg-b/sub';`,
      `import * as c from "pkg-c";`,
      `import "pkg-d";`,
      `export { e } from "pkg-e";`,
      `export * from "pkg-f";`,
      `const g = await import("pkg-g");`,
      `const h = require('pkg-h');`,
      `import{i}from"pkg-i";`,
    ].join('\n');
    assert.deepEqual(importsOf(code).sort(), [
      'pkg-a',
      'pkg-b/sub',
      'pkg-c',
      'pkg-d',
      'pkg-e',
      'pkg-f',
      'pkg-g',
      'pkg-h',
      'pkg-i',
    ]);
  });

  it('fails on an undeclared import, a missing own file, and inlined third-party code (a node_modules path, a native view, a licence banner)', () => {
    const fake = join(scratch, 'fake');
    mkdirSync(join(fake, 'dist'), { recursive: true });
    writeFileSync(
      join(fake, 'package.json'),
      JSON.stringify({ name: 'fake', dependencies: { lit: '*' }, peerDependencies: { 'react-native': '*' } }),
    );
    writeFileSync(
      join(fake, 'dist/index.js'),
      [
        `import { html } from "lit";`,
        `import codegen from "react-native/Libraries/Utilities/codegenNativeComponent";`,
        `import { SafeAreaView } from "react-native-safe-area-context";`,
        `export * from "./missing.js";`,
        `const later = () => import("left-pad");`,
        `const fs = require("fs");`,
        `import "node:fs";`,
        `import "fake/other";`,
        `// node_modules/some-lib/index.js`,
        `var view = codegen("RNCSafeAreaView", { interfaceOnly: true });`,
        `/*! @license MIT */`,
      ].join('\n'),
    );
    const problems = distImportProblems(fake);
    for (const expected of [
      /imports react-native-safe-area-context, which is neither/,
      /imports \.\/missing\.js, which is not a file of the package/,
      /imports left-pad, which is neither/,
      /imports fs, which is neither/,
      /carries a module from node_modules/,
      /carries a native view registration/,
      /carries a native view name/,
      /carries a licence banner/,
    ])
      assert.ok(
        problems.some((problem) => expected.test(problem)),
        `${expected} in:\n${problems.join('\n')}`,
      );
    assert.ok(
      !problems.some((problem) => /imports (lit|node:fs|fake\/other|react-native\/)/.test(problem)),
      problems.join('\n'),
    );
  });
});

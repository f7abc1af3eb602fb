// Every JSX framework typed (issue 82 item 3): beside React's and Vue's lines, each JSX framework with a JSX
// namespace of its own gets the tags' types from one line, `import type {} from 'hub-embed/jsx/<framework>'`,
// which augments that framework's namespace alone. Each app of test/shipped/jsx-apps is compiled alone, with
// its framework's jsxImportSource, where the packed tarball is installed beside the framework at the version
// this repository pins (package.json's devDependencies): its handler compiles, and each @ts-expect-error
// (a misspelt name, a wrong event detail) must be an error, or tsc reports the directive unused.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertRan, installedVersion, npmInstall, pkg, ROOT, run, tarball, tempApp } from './apps.js';

/** Each framework: its package, and how TypeScript compiles its JSX (Solid's is kept for its own compiler). */
const FRAMEWORKS = {
  preact: { packages: ['preact'], jsx: 'react-jsx', jsxImportSource: 'preact' },
  solid: { packages: ['solid-js'], jsx: 'preserve', jsxImportSource: 'solid-js' },
  qwik: { packages: ['@builder.io/qwik'], jsx: 'react-jsx', jsxImportSource: '@builder.io/qwik' },
  hono: { packages: ['hono'], jsx: 'react-jsx', jsxImportSource: 'hono/jsx' },
} as const;

const APPS = join(ROOT, 'test/shipped/jsx-apps');
const tsc = join(ROOT, 'node_modules/.bin/tsc');
let app: ReturnType<typeof tempApp>;

before(() => {
  app = tempApp('jsx-frameworks', { type: 'module' });
  const frameworks = Object.values(FRAMEWORKS).flatMap(({ packages }) => packages);
  for (const name of frameworks) assert.equal(pkg.devDependencies[name], installedVersion(name), `${name} is pinned`);
  // @types/react for React's line, which the Preact app writes beside its own.
  const specs = [...frameworks, '@types/react'].map((name) => `${name}@${installedVersion(name)}`);
  assertRan(npmInstall(app.dir, [tarball().tarball, ...specs]), 'npm install');
});

after(() => app?.remove());

describe('every JSX framework typed', () => {
  it('every JSX framework typed: each entry is types only, and the tarball ships its declarations and no JavaScript for it', () => {
    const { files } = tarball();
    for (const name of Object.keys(FRAMEWORKS)) {
      assert.deepEqual(pkg.exports[`./jsx/${name}`], { types: `./dist/types/jsx/${name}.d.ts` });
      assert.ok(files.includes(`dist/types/jsx/${name}.d.ts`), `the tarball ships dist/types/jsx/${name}.d.ts`);
    }
    assert.deepEqual(
      files.filter((file) => /^dist\/(?!types\/).*jsx/.test(file)),
      [],
    );
  });

  for (const [name, { jsx, jsxImportSource }] of Object.entries(FRAMEWORKS))
    it(`every JSX framework typed: ${name}'s one line types the tags, a handler compiles and a typo is an error`, () => {
      const line = `import type {} from 'hub-embed/jsx/${name}';`;
      assert.ok(readFileSync(join(APPS, `${name}.tsx`), 'utf8').includes(line), `the app writes ${line}`);
      assert.ok(
        readFileSync(join(ROOT, 'docs/frameworks.md'), 'utf8').includes(line),
        `docs/frameworks.md gives ${line}`,
      );
      copyFileSync(join(APPS, `${name}.tsx`), join(app.dir, `${name}.tsx`));
      const compilerOptions = {
        ...{ strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler' },
        ...{ lib: ['es2023', 'dom', 'dom.iterable'], types: [], skipLibCheck: true, jsx, jsxImportSource },
      };
      writeFileSync(
        join(app.dir, `tsconfig.${name}.json`),
        JSON.stringify({ compilerOptions, files: [`${name}.tsx`] }),
      );
      const result = run(tsc, ['-p', `tsconfig.${name}.json`], app.dir);
      assert.equal(result.status, 0, `tsc (${name}) failed:\n${result.out}`);
      // Without the line the same app is a type error: the tags' types come from it, not from anything else.
      writeFileSync(join(app.dir, `${name}.tsx`), readFileSync(join(APPS, `${name}.tsx`), 'utf8').replace(line, ''));
      assert.notEqual(run(tsc, ['-p', `tsconfig.${name}.json`], app.dir).status, 0, `${name} without the line`);
    });
});

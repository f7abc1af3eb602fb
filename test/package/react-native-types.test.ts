// A React Native project has no DOM library, and some keep `skipLibCheck: false`: every declaration file
// that `hub-embed/react-native` reaches must then type-check with the ECMAScript library alone (issue 36
// item 8: a `Window` in the bridge's transports.d.ts, reached through the host kernel's types, broke it).
// The declarations are emitted from src/ as `npm run build` emits them, then checked as such a project would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
// Inside the repository (its /tmp/ is ignored by git), so that the declarations find react-native,
// react and react-native-webview in node_modules as an app's would.
mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp/rn-types-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs tsc on a tsconfig written into `work`; returns its report ('' when it passed). */
function tsc(name: string, config: object): string {
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(config));
  try {
    execFileSync(process.execPath, [TSC, '-p', file], { cwd: ROOT, encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: unknown }).stdout);
  }
}

describe('hub-embed/react-native declarations', () => {
  it('the React Native entry declarations type-check without the DOM library (skipLibCheck: false)', () => {
    const types = join(work, 'types');
    // The build's own declaration settings (tsconfig.build.json), for the React Native entry's files only.
    const emitted = tsc('emit.json', {
      extends: join(ROOT, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        declarationDir: types,
        rootDir: join(ROOT, 'src'),
      },
      include: [],
      files: [join(ROOT, 'src/globals.d.ts'), join(ROOT, 'src/react-native/index.ts')],
    });
    expect(emitted).toBe('');
    // What a React Native app's tsconfig has (@react-native/typescript-config: target esnext): no DOM, no
    // Node types, every declaration file checked.
    const checked = tsc('check.json', {
      compilerOptions: {
        target: 'esnext',
        lib: ['es2022'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
      },
      files: [join(types, 'react-native/index.d.ts')],
    });
    expect(checked).toBe('');
  }, 120_000);
});

// Installs that do not fight the app (issue 43 item 6): the packed tarball installed with plain `npm
// install` (no --legacy-peer-deps, no --force) into an app on React 17 and one on Vue 2.7 that never import
// the bindings. npm checks an optional peer's range whenever the app has the package, so the peers
// accept any version (the bindings check theirs when they load: src/core/peer-floors.ts), and @lit/react,
// which requires @types/react, is an optional peer, not a dependency.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { npmInstall, pkg, run, tarball, tempApp } from './apps.js';

/** Installs the tarball beside `framework` into a fresh app, and checks it there. */
function installBeside(name: string, framework: string[], check: (dir: string) => void): void {
  const app = tempApp(name, { type: 'module' });
  try {
    const install = npmInstall(app.dir, [...framework, tarball().tarball]);
    assert.doesNotMatch(install.out, /ERESOLVE/, install.out);
    assert.equal(install.status, 0, `npm install failed:\n${install.out}`);
    assert.ok(existsSync(join(app.dir, 'node_modules', pkg.name, 'package.json')), 'hub-embed is installed');
    // What such an app uses: the server toolkit and the elements' classes, without a binding.
    writeFileSync(
      join(app.dir, 'use.js'),
      `const server = await import('hub-embed/server');\nconst core = await import('hub-embed/core');\n` +
        `if (typeof server.createTokenHandler !== 'function' || typeof core.buildFormUrl !== 'function') throw new Error('entries');\n`,
    );
    const use = run(process.execPath, ['use.js'], app.dir);
    assert.equal(use.status, 0, use.out);
    check(app.dir);
  } finally {
    app.remove();
  }
}

describe('installs beside an app that never imports the bindings', () => {
  it('an app on React 17 installs the tarball with plain npm install, without ERESOLVE', () => {
    installBeside('react17-app', ['react@17', 'react-dom@17'], (dir) => {
      assert.ok(!existsSync(join(dir, 'node_modules/@lit/react')), '@lit/react comes only with hub-embed/react');
    });
  });

  it('an app on Vue 2.7 installs the tarball with plain npm install, and gets no @types/react', () => {
    installBeside('vue27-app', ['vue@2.7'], (dir) => {
      assert.ok(!existsSync(join(dir, 'node_modules/@types/react')), '@types/react is not installed');
      assert.ok(!existsSync(join(dir, 'node_modules/react')), 'nor React');
    });
  });
});

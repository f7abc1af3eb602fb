// Types that tell the truth (issue 59 item 2): `import type {} from 'hub-embed/react'` in a scratch app on React
// 18 and on React 19, with the packed tarball, `skipLibCheck: false` and no @lit/react installed. React 19's
// tags take properties and `onhub-ready` handlers; React 18's take attributes only, and a property or a
// handler it would drop is a compile error (test/ssr/apps/react18/tags.tsx and react19/tags.tsx mark each line
// that must fail with a ts-expect-error comment). `<HubEmbed>` is typed alike on both.
import assert from 'node:assert/strict';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { INSTALL_FLAGS, ROOT, runAsync, tarball, tempApp, type Result } from '../shipped/apps.js';

/** Each React with its own types, and the TypeScript that compiles the app. */
export const REACT_TYPES = {
  react18: ['react@18.3.1', 'react-dom@18.3.1', '@types/react@18.3.31', '@types/react-dom@18.3.7', 'typescript@5.9.3'],
  react19: ['react@19.3.1', 'react-dom@19.3.1', '@types/react@19.3.0', '@types/react-dom@19.3.0', 'typescript@5.9.3'],
} as const;
type App = keyof typeof REACT_TYPES;

describe('hub-embed/react types in React 18 and 19 apps, skipLibCheck false, without @lit/react', () => {
  const apps = {} as Record<App, { dir: string; remove(): void }>;
  const installs = {} as Record<App, Promise<Result>>;

  before(() => {
    const { tarball: packed } = tarball();
    for (const name of Object.keys(REACT_TYPES) as App[]) {
      const app = (apps[name] = tempApp(`types-${name}`, { type: 'module' }));
      cpSync(join(ROOT, 'test/ssr/apps', name), app.dir, { recursive: true });
      writeFileSync(
        join(app.dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            jsx: 'react-jsx',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
          },
          files: ['tags.tsx'],
        }),
      );
      installs[name] = runAsync('npm', ['install', ...INSTALL_FLAGS, packed, ...REACT_TYPES[name]], app.dir);
    }
  });

  after(async () => {
    await Promise.allSettled(Object.values(installs));
    for (const app of Object.values(apps)) app.remove();
  });

  async function compiles(name: App): Promise<void> {
    const installed = await installs[name];
    assert.equal(installed.status, 0, installed.out);
    assert.ok(!existsSync(join(apps[name].dir, 'node_modules/@lit/react')), '@lit/react is not installed');
    const tsc = await runAsync(join(apps[name].dir, 'node_modules/.bin/tsc'), ['-p', '.'], apps[name].dir);
    assert.equal(tsc.status, 0, tsc.out);
  }

  it('React 18: the tags take attributes only; tokenEndpoint and onhub-ready fail to compile; <HubEmbed> takes properties and handlers', async () => {
    await compiles('react18');
  });

  it('React 19: the tags take properties and onhub-ready handlers, typed; <HubEmbed> too', async () => {
    await compiles('react19');
  });
});

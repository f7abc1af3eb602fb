// The package as a user receives it: the packed tarball (scripts/pack.mjs), installed into a scratch project, import
// every `exports` entry from a separate Node process, type-check an import of each entry with tsc under each
// TypeScript major a user may have (typescripts.ts), and inspect the tarball for tests, demo code, secrets
// and source maps that point outside the package.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'vite';
import { defaultSeed } from '../../packages/hub-embed-mock/src/index.js';
import { editorFiles } from '../../scripts/editor-data.mjs';
import { mockTarball, npmInstall, pkg, ROOT, run, tarball, tempApp, type Result } from './apps.js';
import {
  TYPESCRIPT_MAJORS,
  TYPESCRIPT_RELEASES,
  typescriptAlias,
  typescriptSpecs,
  type TypeScriptMajor,
} from './typescripts.js';

/** The scratch project the tarball is installed into; the unpacked tarball and bundles go there too. */
let scratch: ReturnType<typeof tempApp>;
/** The tarball unpacked: `<scratch>/unpacked/package`. */
let unpacked: string;
let files: string[];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

before(() => {
  files = [...tarball().files].sort();
  scratch = tempApp('tarball-scratch', { type: 'module' });
  mkdirSync(join(scratch.dir, 'unpacked'));
  execFileSync('tar', ['-xzf', tarball().tarball, '-C', join(scratch.dir, 'unpacked')]);
  unpacked = join(scratch.dir, 'unpacked', 'package');
  // With the optional peers a React or Vue user has, so that hub-embed/react and hub-embed/vue import too.
  const peers = ['react', '@types/react', '@lit/react', 'vue', 'react-native', 'react-native-webview'].map(
    (name) => `${name}@${pkg.devDependencies[name]}`,
  );
  // With hub-embed-mock beside it, which hub-embed/mock re-exports for one release, and each TypeScript the
  // types are checked under, side by side under their aliases.
  const install = npmInstall(scratch.dir, [tarball().tarball, mockTarball().tarball, ...peers, ...typescriptSpecs()]);
  if (install.status !== 0) throw new Error(`Installing the tarball failed:\n${install.out}`);
});

after(() => scratch?.remove());

/** Runs an ES module snippet in a fresh `node` inside the scratch project, as a user's code would. */
function nodeInScratch(code: string): Result {
  return run(process.execPath, ['--input-type=module', '-e', code], scratch.dir);
}

/**
 * Type-checks `file` in the scratch project with TypeScript `major`, strict and for ES2022 as the package is,
 * with `options`; says which version ran, so a failure names it.
 */
function tscInScratch(major: TypeScriptMajor, file: string, options: string[]): Result {
  const tsc = join(scratch.dir, 'node_modules', typescriptAlias(major), 'bin', 'tsc');
  const version = run(tsc, ['--version'], scratch.dir).out.trim();
  assert.equal(version.split('\n')[0], `Version ${TYPESCRIPT_RELEASES[major]}`, `TypeScript ${major}'s tsc`);
  const result = run(tsc, ['--noEmit', '--strict', '--target', 'es2022', ...options, file], scratch.dir);
  return { ...result, out: `${version}\n${result.out}` };
}

// The JSX frameworks' type entries (hub-embed/jsx/preact, …) have no JavaScript and need their framework's
// types: test/shipped/jsx-frameworks.test.ts compiles each beside its framework.
const typesOnly = (subpath: string) => {
  const target = pkg.exports[subpath];
  return typeof target === 'object' && !('default' in target);
};
const subpaths = Object.keys(pkg.exports).filter((subpath) => !typesOnly(subpath));
const specifier = (subpath: string) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);

describe('npm pack', () => {
  it('the tarball installs into a scratch project, with its dependencies', () => {
    const installed = JSON.parse(readFileSync(join(scratch.dir, 'node_modules', pkg.name, 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(installed.version, pkg.version);
    for (const dep of Object.keys(pkg.dependencies)) {
      assert.ok(existsSync(join(scratch.dir, 'node_modules', dep, 'package.json')), `dependency ${dep} installed`);
    }
  });

  const SIDE_EFFECT_ENTRIES = new Set(['./define', './webview', './wechat']);
  it('every exports entry imports in a separate Node process (no DOM)', () => {
    assert.ok(subpaths.length >= 7, `exports: ${subpaths.join(', ')}`);
    // react-native itself is source for Metro (Flow, JSX), which no plain Node process can import; its
    // entry is checked by its types below and run in test/native-hosts/react-native.test.ts.
    for (const subpath of subpaths.filter((path) => path !== './react-native')) {
      const name = specifier(subpath);
      const json = subpath.endsWith('.json');
      const code = `const mod = await import(${JSON.stringify(name)}${json ? ", { with: { type: 'json' } }" : ''});
        if (typeof document !== 'undefined') throw new Error('unexpected DOM');
        console.log(JSON.stringify(Object.keys(${json ? 'mod.default' : 'mod'}).length));`;
      const result = nodeInScratch(code);
      assert.equal(result.status, 0, `import('${name}') failed:\n${result.out}`);
      // The side-effect entries are imported for what they do, like a polyfill, and export nothing:
      // hub-embed/define and hub-embed/webview register the elements, hub-embed/wechat plugs a transport in.
      if (SIDE_EFFECT_ENTRIES.has(subpath)) {
        assert.equal(result.out.trim().split('\n')[0], '0', `${name} exports nothing`);
        continue;
      }
      assert.ok(Number(result.out.trim().split('\n')[0]) > 0, `import('${name}') exported nothing:\n${result.out}`);
    }
  });

  it('the hub-embed, hub-embed/plumbing, hub-embed/core and hub-embed/server entries expose their main functions in Node', () => {
    const result = nodeInScratch(`
      const main = await import('hub-embed'); const plumbing = await import('hub-embed/plumbing');
      const core = await import('hub-embed/core'); const server = await import('hub-embed/server');
      const missing = [
        ...['HubEmbed', 'HubTagFilter'].filter((n) => !(n in main)),
        ...['HubElement', 'define', 'loadFormOpener', 'version'].filter((n) => !(n in plumbing)),
        ...['WebClient', 'buildFormUrl', 'tokenFromEndpoint'].filter((n) => !(n in core)),
        ...['createServerClient', 'createTokenHandler', 'createWebhookHandler', 'toNodeListener'].filter((n) => !(n in server)),
      ];
      if (missing.length) throw new Error('missing: ' + missing.join(', '));
      console.log(plumbing.version);`);
    assert.equal(result.status, 0, result.out);
    assert.equal(result.out.trim().split('\n')[0], pkg.version);
  });

  it("hub-embed-mock's bin, from its own package, is installed and answers --help", () => {
    const mockPkg = JSON.parse(readFileSync(join(ROOT, 'packages/hub-embed-mock/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    assert.equal(pkg.bin, undefined, 'hub-embed has no bin');
    assert.deepEqual(Object.keys(mockPkg.bin), ['hub-embed-mock']);
    for (const name of Object.keys(mockPkg.bin)) {
      const bin = join(scratch.dir, 'node_modules', '.bin', name);
      assert.ok(existsSync(bin), `${name} linked in node_modules/.bin`);
      const result = run(bin, ['--help'], scratch.dir);
      assert.equal(result.status, 0, result.out);
      assert.match(result.out, /--help/);
    }
  });

  for (const major of TYPESCRIPT_MAJORS)
    for (const resolution of ['node16', 'bundler'] as const) {
      it(`the types of every exports entry resolve under TypeScript ${major} (moduleResolution ${resolution})`, () => {
        // hub-embed/react-native is compiled as a React Native app is, without the DOM: react-native's
        // own globals (fetch, Blob, …) clash with lib.dom's, so no program has both (the test below).
        const entries = subpaths.filter((subpath) => !subpath.endsWith('.json') && subpath !== './react-native');
        const source =
          entries.map((subpath, i) => `import * as entry${i} from '${specifier(subpath)}';`).join('\n') +
          // Each namespace must have real, typed members: `keyof` of an unresolved module would be an error.
          `\nexport const used = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n` +
          `import { HubEmbed } from 'hub-embed';\nimport { version } from 'hub-embed/plumbing';\nimport { buildFormUrl } from 'hub-embed/core';\nimport { createTokenHandler } from 'hub-embed/server';\n` +
          `const v: string = version;\nconst url: string = buildFormUrl('https://forms.example.com', 'a b', 't');\n` +
          `const el: HTMLElement = new HubEmbed();\nconst tokenHandler: (request: Request) => Promise<Response> = createTokenHandler({ client: { exchangeToken: async () => ({ accessToken: 'x', expiresIn: 60 }) } as never, resolveClientUserId: () => 'u' });\n` +
          `export { v, url, el, tokenHandler };\n`;
        const file = join(scratch.dir, `check-${resolution}-ts${major}.ts`);
        writeFileSync(file, source);
        const module = resolution === 'node16' ? 'node16' : 'esnext';
        const typeRoots = join(ROOT, 'node_modules', '@types');
        const result = tscInScratch(major, file, [
          ...['--lib', 'es2022,dom,dom.iterable', '--module', module, '--moduleResolution', resolution],
          ...['--types', 'node', '--typeRoots', typeRoots, '--experimentalDecorators', 'false'],
        ]);
        assert.equal(result.status, 0, `tsc (${resolution}) failed:\n${result.out}`);
      });
    }

  for (const major of TYPESCRIPT_MAJORS)
    it(`the types of hub-embed/react-native resolve under TypeScript ${major} as a React Native app compiles them (no DOM)`, () => {
      const file = join(scratch.dir, `check-react-native-ts${major}.ts`);
      writeFileSync(
        file,
        `import { HubEmbedView, type HubEmbedViewHandle, type HubEmbedViewProps } from 'hub-embed/react-native';\n` +
          `const props: HubEmbedViewProps = { source: { uri: 'https://widget.example/embed' }, onReady: ({ version }) => void version.length };\n` +
          `export const used: [typeof HubEmbedView, HubEmbedViewProps, HubEmbedViewHandle | null] = [HubEmbedView, props, null];\n`,
      );
      const result = tscInScratch(major, file, [
        ...['--lib', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck'],
      ]);
      assert.equal(result.status, 0, `tsc failed:\n${result.out}`);
    });

  it('a bundler that honours "sideEffects" keeps what hub-embed/define, hub-embed/webview and hub-embed/wechat do on import', async () => {
    // Both entries are imported for their side effects only, as `import 'hub-embed/webview'` is. A module
    // wrongly taken as side-effect free is dropped silently: elements never registered, or a WebView
    // build without its bridge.
    /** The entry's output, and the chunks the bundler split off (the form half, a dynamic import). */
    const bundle = async (
      entry: string,
    ): Promise<{ main: string; chunks: string; first: string; formHalf: string }> => {
      const file = join(scratch.dir, `side-effects-${entry.replace(/\W/g, '-')}.js`);
      writeFileSync(file, `import '${entry}';\n`);
      const outDir = mkdtempSync(join(scratch.dir, 'bundle-'));
      await build({
        configFile: false,
        root: scratch.dir,
        logLevel: 'silent',
        build: { outDir, minify: false, write: true, lib: { entry: file, formats: ['es'], fileName: () => 'out.js' } },
      });
      const chunks = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.js') && path !== 'out.js')
        .map((path) => readFileSync(join(outDir, path), 'utf8'));
      const main = readFileSync(join(outDir, 'out.js'), 'utf8');
      // What the page loads first: the entry's file and the chunks the bundler split off for code it shares
      // with the form half, all imported statically. The form half comes later, on intent.
      const isFormHalf = (chunk: string) => chunk.includes('define("hub-form-frame"');
      const first = [main, ...chunks.filter((chunk) => !isFormHalf(chunk))].join('\n');
      return { main, chunks: chunks.join('\n'), first, formHalf: chunks.filter(isFormHalf).join('\n') };
    };
    const {
      main: plain,
      chunks: plainChunks,
      first: plainFirst,
      formHalf: plainFormHalf,
    } = await bundle('hub-embed/define');
    const { main: webview, chunks: webviewChunks } = await bundle('hub-embed/webview');
    for (const [name, code, chunks] of [
      ['define', plain, plainChunks],
      ['webview', webview, webviewChunks],
    ] as const) {
      for (const tag of ['hub-embed', 'hub-tag-filter', 'hub-table-grid', 'hub-table-card']) {
        assert.ok(code.includes(`define("${tag}"`), `hub-embed/${name} registers <${tag}>`);
      }
      // The form half is a dynamic import, which the bundler splits off into a file of its own.
      assert.ok(!code.includes(`define("hub-form-frame"`), `hub-embed/${name}: the form half is not in the first file`);
      assert.ok(
        chunks.includes(`define("hub-form-frame"`),
        `hub-embed/${name}: the split-off form half registers <hub-form-frame>`,
      );
      assert.match(code + chunks, /import\(/, `hub-embed/${name} imports its form half dynamically`);
    }
    // Code, not the doc comments an unminified bundle keeps.
    assert.ok(
      webview.includes('enableBridge();') && webview.includes('function connectBridge('),
      'hub-embed/webview plugs the bridge in',
    );
    // Said as the widget connects: a page that never gets to hub-ready (no token-endpoint) says it too.
    assert.ok(
      plainFirst.includes('needs the WebView build') && !plainFormHalf.includes('needs the WebView build'),
      'hub-embed/define says, from what the page loads first, that bridge="auto" needs the WebView build',
    );
    assert.ok(
      !webview.includes('needs the WebView build') && !webviewChunks.includes('needs the WebView build'),
      'hub-embed/webview never says it',
    );
    assert.ok(!(plain + plainChunks).includes('function connectBridge('), 'hub-embed/define carries no bridge');
    // The WeChat transport is an add-on: not in hub-embed/webview, kept (as it acts on import) with it.
    assert.ok(!webview.includes('wx?.miniProgram'), 'hub-embed/webview carries no WeChat transport');
    const { main: wechat } = await bundle('hub-embed/wechat');
    assert.ok(
      wechat.includes('addTransport("wechat"') && wechat.includes('wx?.miniProgram'),
      'hub-embed/wechat plugs the WeChat transport in',
    );
  });

  it('the tarball holds no tests and no demo', () => {
    const offending = files.filter(
      (path) => /(^|\/)(test|tests|__tests__|e2e|demo|bench)\//.test(path) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(path),
    );
    assert.deepEqual(offending, []);
    assert.ok(
      !files.some((path) => path.startsWith('src/')) || files.some((path) => path === 'src/index.ts'),
      'sources are either shipped whole or not at all',
    );
    assert.ok(
      files.includes('dist/hub-embed.iife.js') &&
        files.includes('dist/hub-embed.iife.js.sri') &&
        files.includes('dist/custom-elements.json'),
      'the bundle, its SRI and the manifest ship',
    );
  });

  it('the tarball ships the editor data as generated from its manifest, where package.json says', () => {
    const generated = editorFiles(ROOT.replace(/\/$/, ''));
    for (const [file, text] of Object.entries(generated)) {
      assert.ok(files.includes(file), `${file} is in the tarball`);
      assert.equal(readFileSync(join(unpacked, file), 'utf8'), text, `${file} matches the manifest`);
    }
    const shipped = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { 'web-types'?: string };
    assert.ok(shipped['web-types'] && existsSync(join(unpacked, shipped['web-types'])), 'web-types points at its file');
  });

  it('the tarball holds no secrets: no .env or key files, and no sk- keys but the simulator’s public fake ones', () => {
    assert.deepEqual(
      files.filter((path) => /(^|\/)\.env|\.pem$|\.key$|\.npmrc$/.test(path)),
      [],
    );
    // The simulator's seed keys are documented fakes that only open the local simulator.
    const fakes = new Set(defaultSeed.accounts.flatMap((account) => (account.keys ?? []).map((key) => key.key)));
    const found: string[] = [];
    for (const path of walk(unpacked)) {
      if (/\.(png|jpe?g|gif|webp|ico)$/.test(path)) continue;
      for (const match of readFileSync(path, 'utf8').matchAll(/sk-[A-Za-z0-9_-]{8,}/g)) {
        if (!fakes.has(match[0])) found.push(`${relative(unpacked, path)}: ${match[0]}`);
      }
    }
    assert.deepEqual(found, []);
  });

  it('the tarball holds no source maps that point outside the package', () => {
    const problems: string[] = [];
    for (const path of walk(unpacked)) {
      const rel = relative(unpacked, path);
      if (path.endsWith('.js')) {
        const ref = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path, 'utf8'))?.[1];
        if (ref && !ref.startsWith('data:') && !existsSync(resolve(dirname(path), ref)))
          problems.push(`${rel}: sourceMappingURL ${ref} is not in the package`);
      }
      if (!path.endsWith('.map')) continue;
      const map = JSON.parse(readFileSync(path, 'utf8')) as {
        sources?: string[];
        sourcesContent?: (string | null)[];
        sourceRoot?: string;
      };
      (map.sources ?? []).forEach((source, i) => {
        if (/^(file:|\/|[A-Za-z]:\\)/.test(source) || /^(file:|\/)/.test(map.sourceRoot ?? ''))
          return void problems.push(`${rel}: absolute source ${source}`);
        const target = resolve(dirname(path), map.sourceRoot ?? '', source);
        if (target !== unpacked && !target.startsWith(unpacked + sep))
          return void problems.push(`${rel}: source ${source} leaves the package`);
        if (!existsSync(target) && typeof map.sourcesContent?.[i] !== 'string')
          problems.push(`${rel}: source ${source} is neither shipped nor embedded`);
      });
    }
    assert.deepEqual(problems, []);
  });
});

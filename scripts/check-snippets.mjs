// Snippets that work as written: packs the package (scripts/pack.mjs, which builds first), installs the
// tarball into an empty project, and type-checks there, under `strict`:
//   - every ts/tsx/js block of README.md and docs/*.md, together and each in a program of its own, except
//     blocks right after `<!-- fragment: why -->` (a piece that needs surrounding code; the marker must say
//     what it needs, and one without a reason fails) or `<!-- from: file#region -->` (a region of a file);
//   - each ts/tsx block quoted from a file (`<!-- from: file#region -->`), alone, at that file's place in
//     this repository (quotedErrors), so a region that uses a name its file declares outside it fails;
//   - the examples' own source files, as they import `hub-embed/...`;
//   - test/bindings/packed/*: hub-embed/react and hub-embed/vue types used right and wrong;
//   - test/bindings/one-line/*: the README's one-line type imports for React 19 and Vue, each file alone.
// It also checks what the tarball holds. Blocks listed in scripts/check-snippets.known.json are known to
// fail (the lead's to fix): they are reported, and one that starts to pass must be taken off the list.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MOCK_PACKAGE, packedTarball } from './pack.mjs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';

const root = process.cwd();
const keep = process.argv.includes('--keep');
const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const NEXT = 'next@16.4.6';
const EXTENSIONS = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', jsx: 'jsx' };

const FENCE = /^(?:(<!-- [^\n]*-->)\n)?```(\w+)\n([\s\S]*?)^```$/gm;

/** Each checkable block: where it is, a stable name, and its code. */
export function snippetsOf(file, text) {
  const blocks = [];
  for (const match of text.matchAll(FENCE)) {
    const [, marker = '', lang, code] = match;
    const ext = EXTENSIONS[lang];
    if (!ext || /^<!-- (fragment|from:)/.test(marker)) continue;
    const line = text.slice(0, match.index).split('\n').length + (marker ? 1 : 0);
    const firstLine = code.split('\n').find((l) => l.trim()) ?? '';
    blocks.push({ file, line, ext, code, name: `${file}: ${firstLine.trim().slice(0, 80)}` });
  }
  return blocks;
}

/** The code blocks marked `<!-- fragment -->` without saying what surrounding code they need. */
export function bareFragments(file, text) {
  return [...text.matchAll(FENCE)]
    .filter(([, marker = '', lang]) => EXTENSIONS[lang] && /^<!-- fragment\s*-->/.test(marker))
    .map((match) => `${file}:${text.slice(0, match.index).split('\n').length}`);
}

/**
 * Quoted blocks left to the apps they come from: each framework app of test/ssr/apps compiles only with the
 * types its framework generates (Nuxt's auto-imports, SvelteKit's ./$types, React Router's ./+types), and
 * test/ssr builds every one of them.
 */
const QUOTED_ELSEWHERE = /^test\/(ssr\/apps|shipped\/jsx-apps)\//;

/** The ts/tsx blocks quoted from a file of this repository, each with the file it is to stand in for. */
export function quotedOf(file, text) {
  const blocks = [];
  for (const match of text.matchAll(FENCE)) {
    const [, marker = '', lang, code] = match;
    const source = /^<!-- from: (\S+?)#/.exec(marker)?.[1];
    if (!source || !['ts', 'tsx'].includes(EXTENSIONS[lang]) || QUOTED_ELSEWHERE.test(source)) continue;
    const line = text.slice(0, match.index).split('\n').length + 1;
    blocks.push({
      file,
      line,
      source,
      code,
      path: join(dirname(source), `quoted-${basename(file, '.md')}-${line}.${EXTENSIONS[lang]}`),
    });
  }
  return blocks;
}

/**
 * tsc's errors for each quoted block, compiled alone as a file beside the one it quotes, with this
 * repository's tsconfig.json (hub-embed resolves to src/, the way the quoted file's own imports do): a user
 * who copies the block gets what it declares and imports, and nothing of the file around the region.
 */
export function quotedErrors(blocks) {
  const require = createRequire(join(root, 'package.json'));
  const ts = require('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  // The block is a file of its own: declarations the quoted file uses elsewhere are not unused here.
  const options = { ...config.options, jsx: ts.JsxEmit.ReactJSX, noUnusedLocals: false, noUnusedParameters: false };
  const host = ts.createCompilerHost(options);
  const virtual = new Map(blocks.map((block) => [join(root, block.path), `${block.code}\nexport {};\n`]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) =>
    virtual.has(name) ? ts.createSourceFile(name, virtual.get(name), language) : getSourceFile(name, language, ...rest);
  let previous;
  const failures = [];
  for (const block of blocks) {
    const path = join(root, block.path);
    const program = ts.createProgram([path], options, host, previous);
    previous = program;
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(path));
    if (diagnostics.length)
      failures.push(
        `${block.file}:${block.line} (quoted from ${block.source}, alone)\n    ${ts
          .formatDiagnostics(diagnostics, formatHost(ts, root))
          .trimEnd()
          .split('\n')
          .join('\n    ')}`,
      );
  }
  return failures;
}

/** tsc's lines (`path(line,col): error TS…`) for each of `blocks` type-checked in a program of its own. */
function aloneErrors(project, compilerOptions, blocks) {
  const ts = createRequire(join(project, 'package.json'))('typescript');
  const { options, errors } = ts.convertCompilerOptionsFromJson({ ...compilerOptions, skipLibCheck: true }, project);
  if (errors.length) throw new Error(ts.formatDiagnostics(errors, formatHost(ts, project)));
  const host = ts.createCompilerHost(options);
  let previous;
  let lines = '';
  for (const block of blocks) {
    const program = ts.createProgram([join(project, block.path)], options, host, previous);
    previous = program;
    const diagnostics = ts.getPreEmitDiagnostics(program);
    if (diagnostics.length) lines += ts.formatDiagnostics(diagnostics, formatHost(ts, project));
  }
  return lines;
}

const formatHost = (ts, project) => ({
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => project,
  getNewLine: () => '\n',
});

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// The checks that need no tarball first: a fragment must say what it needs, and each quoted block compiles alone.
const early = [];
const quoted = [];
for (const file of DOCS) {
  const text = readFileSync(file, 'utf8');
  early.push(...bareFragments(file, text).map((at) => `${at}: say what the fragment needs: <!-- fragment: … -->`));
  quoted.push(...quotedOf(file, text));
}
console.log(`== each of the ${quoted.length} blocks quoted from a file, alone, at that file's place`);
early.push(...quotedErrors(quoted));
if (early.length) {
  console.error(`\n${early.join('\n\n')}\n`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'hub-embed-snippets-'));
try {
  // 1. The tarball, built and packed when stale (scripts/pack.mjs: one pack per change, shared by the lanes).
  console.log('== the packed tarball (scripts/pack.mjs builds and packs when stale)');
  const { tarball, files } = packedTarball();
  const must = [
    'dist/hub-embed.iife.js',
    'dist/hub-embed.iife.js.sri',
    'dist/server.js',
    'dist/react.js',
    'dist/vue.js',
    'dist/types/react/index.d.ts',
    'dist/types/vue/index.d.ts',
    'dist/custom-elements.json',
    'README.md',
    'LICENSE',
  ];
  const missing = must.filter((f) => !files.includes(f));
  const unwanted = files.filter((f) => /\.png$|^src\/|^test\/|^examples\//.test(f));
  if (missing.length || unwanted.length)
    throw new Error(
      `The tarball is wrong. Missing: ${missing.join(', ') || 'none'}. Unwanted: ${unwanted.join(', ') || 'none'}.`,
    );
  console.log(
    `${basename(tarball)}: ${files.length} files, ${statSync(tarball).size} bytes packed (no screenshots, dist included)`,
  );

  // 2. An empty project with the tarball and what the snippets use.
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
  const devDeps = JSON.parse(readFileSync('package.json', 'utf8')).devDependencies;
  const pin = (name) => `${name}@${devDeps[name]}`;
  console.log('== npm install the tarball into an empty project');
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      tarball,
      // The simulator's package, which the snippets and examples that start a simulator import.
      packedTarball(MOCK_PACKAGE).tarball,
      ...[
        'typescript',
        '@lit/react',
        '@types/node',
        'react',
        'react-dom',
        '@types/react',
        '@types/react-dom',
        'vue',
        'express',
        '@types/express',
        'vite',
        '@vitejs/plugin-vue',
        '@vitejs/plugin-react',
        '@electric-sql/pglite',
        'pg',
        '@types/pg',
        'redis',
        'vue-tsc',
      ].map(pin),
      // Types only: the Next.js route-handler snippet in docs/server.md compiles against Next's own. Not a
      // devDependency: this registry lacks next's darwin and windows compiler packages, so a lock file
      // holding next cannot be complete, and npm ci refuses an incomplete one.
      NEXT,
    ],
    project,
  );

  // 3. The files to check.
  const checked = [];
  for (const file of DOCS)
    for (const block of snippetsOf(file, readFileSync(file, 'utf8'))) {
      const path = `snippets/${basename(file, '.md')}-${block.line}.${block.ext}`;
      mkdirSync(join(project, 'snippets'), { recursive: true });
      // `export {}` makes each block a module of its own, as a file in a user's project is.
      writeFileSync(
        join(project, path),
        `${block.ext.startsWith('j') ? '// @ts-check\n' : ''}${block.code}\nexport {};\n`,
      );
      checked.push({ ...block, path });
    }
  cpSync('test/bindings/packed', join(project, 'types'), { recursive: true });
  for (const dir of ['express', 'react/src', 'vue/src'])
    cpSync(join('examples', dir), join(project, 'examples', dir), {
      recursive: true,
      filter: (src) => !src.includes('/public'),
    });
  const compilerOptions = {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    jsx: 'react-jsx',
    strict: true,
    allowJs: true,
    checkJs: true,
    noEmit: true,
    isolatedModules: true,
    resolveJsonModule: true,
  };
  // The snippets and examples, with other packages' declarations taken as they are (PGlite's need
  // @types/emscripten); the binding type tests with every declaration checked, hub-embed's own included.
  const tsconfig = (include, skipLibCheck) =>
    JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck }, include });
  writeFileSync(join(project, 'tsconfig.json'), tsconfig(['snippets', 'examples'], true));
  writeFileSync(join(project, 'tsconfig.types.json'), tsconfig(['types'], false));
  // The README's one-line type imports, each file a program of its own: nothing else may bring the types in.
  cpSync('test/bindings/one-line', join(project, 'one-line'), { recursive: true });
  const oneLine = readdirSync('test/bindings/one-line').map((file) => {
    const config = `tsconfig.one-line-${file}.json`;
    writeFileSync(
      join(project, config),
      JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck: true }, files: [`one-line/${file}`] }),
    );
    return config;
  });

  // 4. tsc, errors grouped by file.
  console.log(`== tsc --strict over ${checked.length} doc snippets, the examples and the binding type tests`);
  let output = '';
  for (const [compiler, config] of [
    ['vue-tsc', 'tsconfig.json'],
    ['tsc', 'tsconfig.types.json'],
    ...oneLine.map((config) => ['tsc', config]),
  ])
    try {
      run(join(project, 'node_modules/.bin', compiler), ['-p', config], project);
    } catch (error) {
      output += `${error.stdout ?? ''}${error.stderr ?? ''}`;
    }
  // Each snippet again in a program of its own, as a user pastes it: a block that compiles only beside
  // another (which brought in the types it uses) fails here. One compiler, each program reusing the files
  // the one before parsed.
  console.log(`== each of the ${checked.length} doc snippets alone`);
  output += aloneErrors(project, compilerOptions, checked);
  const errorsIn = (path) => output.split('\n').filter((l) => l.startsWith(path + '(') || l.startsWith(path + ':'));
  const known = new Set(JSON.parse(readFileSync('scripts/check-snippets.known.json', 'utf8')).failing);
  const failures = [];
  const stillKnown = [];
  for (const block of checked) {
    const errors = errorsIn(block.path);
    if (errors.length && known.has(block.name)) stillKnown.push(block);
    else if (errors.length) failures.push(`${block.file}:${block.line} (${block.name})\n    ${errors.join('\n    ')}`);
    else if (known.has(block.name))
      failures.push(`${block.name} now passes: take it off scripts/check-snippets.known.json`);
  }
  const others = output.split('\n').filter((l) => /error TS/.test(l) && !checked.some((b) => l.startsWith(b.path)));
  if (others.length)
    failures.push(`The examples, the binding type tests or the one-line imports:\n    ${others.join('\n    ')}`);
  for (const block of stillKnown) console.log(`KNOWN FAILING (to fix): ${block.file}:${block.line} ${block.name}`);
  if (failures.length) {
    console.error(`\n${failures.join('\n\n')}\n`);
    console.error(`${checked.length - stillKnown.length - failures.length} passed, ${failures.length} failed`);
    process.exitCode = 1;
  } else {
    console.log('The examples and the binding type tests compile against the packed package.');
    console.log(`${checked.length - stillKnown.length} passed, 0 failed`);
  }
} finally {
  if (keep) console.log(`kept ${relative(root, work) || work}`);
  else rmSync(work, { recursive: true, force: true });
}

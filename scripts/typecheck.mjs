// The fast gate's type check of the project (tsconfig.json: src, test, bench, demo, scripts) and its API
// reports, in one compiler program: what `tsc --noEmit` reports, then the declarations of src/ emitted from
// the same checked program (no second check, as `tsc -p tsconfig.build.json` would run) and compared with
// api/*.api.md (scripts/api-report.mjs). Less compiler work than the two runs apart.
//   node scripts/typecheck.mjs           exit status 1 on a type error or a report that differs
//   node scripts/typecheck.mjs --write   writes the reports instead of comparing them (as `npm run api`)
// vue-tsc checks the examples (examples/tsconfig.json) apart, in `npm run typecheck` and the snippets lane
// (`npm run ci -- snippets`): its program is Vue's.
import { rmSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import ts from 'typescript';
import { reportProblems } from './api-report.mjs';
import { ensureConsoleBundle } from './console-bundle.mjs';

// The simulator imports its console as a generated module: an input of this check, so made (when stale) here.
await ensureConsoleBundle();

const TYPES_DIR = 'node_modules/.cache/api-types-gate';
// The declarations of both packages' sources: src/ and the simulator's.
const EMITTED = [resolve('src') + sep, resolve('packages/hub-embed-mock/src') + sep];

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', undefined, host);
if (!config) process.exit(1);

/** Prints diagnostics as tsc does and exits with status 1. */
function fail(diagnostics) {
  const formatHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => ts.sys.newLine,
  };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  console.error(`Found ${diagnostics.length} error(s).`);
  process.exit(1);
}

// The project's options with tsconfig.build.json's declaration output (the build config extends this one and
// adds only that), so one program serves both. Incremental, as `tsc --incremental`: the next run takes the
// diagnostics of every file that neither changed nor depends on one that changed from
// node_modules/.cache (a clean clone checks everything).
const builder = ts.createIncrementalProgram({
  rootNames: config.fileNames,
  options: {
    ...config.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationDir: TYPES_DIR,
    // The project's root, so src/index.ts gives <TYPES_DIR>/src/index.d.ts.
    rootDir: '.',
    incremental: true,
    tsBuildInfoFile: 'node_modules/.cache/hub-embed-typecheck.tsbuildinfo',
  },
  configFileParsingDiagnostics: config.errors,
});
// What `tsc --noEmit` reports: options, syntax and types. Declaration diagnostics are the emit's, below,
// and only the packages' sources are emitted (the scripts' .mjs files are not declarations anyone reads).
const diagnostics = [
  ...builder.getConfigFileParsingDiagnostics(),
  ...builder.getOptionsDiagnostics(),
  ...builder.getGlobalDiagnostics(),
  ...builder.getSyntacticDiagnostics(),
  ...builder.getSemanticDiagnostics(),
];
if (diagnostics.length) fail(diagnostics);

rmSync(TYPES_DIR, { recursive: true, force: true });
const program = builder.getProgram();
const emitted = [];
for (const file of program.getSourceFiles()) {
  if (!EMITTED.some((dir) => file.fileName.startsWith(dir)) || file.isDeclarationFile) continue;
  emitted.push(...program.emit(file, undefined, undefined, true).diagnostics);
}
if (emitted.length) fail(emitted);
// The checked state for the next run. tsc writes it through the same call (`--incremental --noEmit`); the
// builder's public emit() would also emit the declarations of test/ and bench/. Without it (a TypeScript
// that drops the method), every run checks everything, as before.
if (typeof builder.emitBuildInfo === 'function') builder.emitBuildInfo();

const write = process.argv.includes('--write');
const { problems, entries } = reportProblems(TYPES_DIR, !write);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`Types check; API reports ${write ? 'written' : 'match'}: ${entries} entries, api/*.api.md.`);

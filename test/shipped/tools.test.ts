// The package passes the checks its users' tools make (issue 43 item 7), on the packed tarball: publint
// (strict: warnings fail too), Are the Types Wrong under node16 (from ESM and from CommonJS) and bundler
// resolution, and the custom elements manifest (package.json's `customElements`, built into dist/) valid under
// the custom-elements-manifest schema (2.1.0) with every module it names a file the tarball ships.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { pkg, ROOT, run, tarball } from './apps.js';

const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
/** The manifest as the tarball ships it, where package.json's `customElements` points. */
const MANIFEST = normalize(pkg.customElements);

describe("the checks of users' tools", () => {
  it('publint --strict finds nothing', () => {
    const result = run(bin('publint'), ['run', tarball().tarball, '--strict'], ROOT);
    assert.equal(result.status, 0, result.out);
    assert.match(result.out, /All good!/, result.out);
  });

  it('Are the Types Wrong finds nothing under node16 (from ESM and CommonJS) and bundler resolution', () => {
    // cjs-resolves-to-esm is the package's design, not a fault: it ships ES modules only, and CommonJS on the
    // Node versions it supports (engines) loads them with require() (test/shipped/commonjs.test.ts);
    // TypeScript's node16 mode predates require(esm) and still calls that "dynamic import only".
    const result = run(
      bin('attw'),
      [tarball().tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'json'],
      ROOT,
    );
    const report = JSON.parse(result.out.slice(result.out.indexOf('{'))) as {
      analysis: { problems: { kind: string; entrypoint?: string; resolutionKind?: string }[]; entrypoints: object };
    };
    const problems = report.analysis.problems.filter(
      (problem) => problem.kind !== 'CJSResolvesToESM' && problem.resolutionKind !== 'node10',
    );
    assert.deepEqual(problems, []);
    assert.equal(result.status, 0, result.out.slice(0, 2000));
    assert.ok(Object.keys(report.analysis.entrypoints).length >= 13, 'every exports entry was checked');
  });

  it('the custom elements manifest is valid under the current custom-elements-manifest schema', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules/custom-elements-manifest/schema.json'), 'utf8'));
    const { version } = JSON.parse(
      readFileSync(join(ROOT, 'node_modules/custom-elements-manifest/package.json'), 'utf8'),
    ) as { version: string };
    assert.equal(version, '2.1.0', 'the schema package is the current version');
    const manifest = JSON.parse(readFileSync(join(ROOT, MANIFEST), 'utf8')) as { schemaVersion: string };
    assert.equal(manifest.schemaVersion, version);
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    assert.ok(validate(manifest), JSON.stringify(validate.errors, null, 2));
  });

  it('every module the custom elements manifest names is a file the tarball ships', () => {
    const { files } = tarball();
    assert.ok(files.includes(MANIFEST), `the tarball ships the manifest, ${MANIFEST}`);
    const manifest = JSON.parse(readFileSync(join(ROOT, MANIFEST), 'utf8')) as {
      modules: { path: string }[];
    };
    const named = new Set<string>(manifest.modules.map((module) => module.path));
    // And every reference's module (`declaration`, `superclass`, `inheritedFrom`, …) that is not another package's.
    JSON.stringify(manifest, (_key, value: unknown) => {
      if (value && typeof value === 'object' && 'module' in value && !('package' in value))
        named.add(String((value as { module: unknown }).module));
      return value;
    });
    assert.deepEqual(
      [...named].filter((path) => !files.includes(path)),
      [],
    );
    assert.ok(named.has('dist/index.js') && named.has('dist/define.js'), [...named].join(', '));
  });
});

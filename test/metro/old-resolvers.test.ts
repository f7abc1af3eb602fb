// Every subpath resolves, with its types, under TypeScript's moduleResolution node10, which reads no
// `exports` (as Metro before 0.82 reads none): Are the Types Wrong on the packed tarball, node10 included.
// The subpath folders (scripts/subpath-folders.mjs) are what make it pass; the matrix (matrix.test.ts)
// bundles hub-embed/react-native with Metro 0.80 and 0.81 and type-checks it under node10.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { pkg, ROOT, run, tarball } from '../shipped/apps.js';

it('Are the Types Wrong finds every subpath and its types under node10 resolution', () => {
  const result = run(
    join(ROOT, 'node_modules/.bin/attw'),
    // The manifest is data, not a module: node10 reads no `exports`, so there it is the file's own path,
    // hub-embed/dist/custom-elements.json (where package.json's `customElements` points), checked below.
    [
      tarball().tarball,
      '--ignore-rules',
      'cjs-resolves-to-esm',
      '--exclude-entrypoints',
      './custom-elements.json',
      '--format',
      'json',
    ],
    ROOT,
  );
  const report = JSON.parse(result.out.slice(result.out.indexOf('{'))) as {
    analysis: {
      problems: { kind: string; entrypoint?: string; resolutionKind?: string }[];
      entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }>;
    };
  };
  const { problems, entrypoints } = report.analysis;
  assert.deepEqual(
    problems.filter((problem) => problem.resolutionKind === 'node10'),
    [],
    'problems under node10',
  );
  assert.equal(pkg.customElements, './dist/custom-elements.json');
  assert.equal(pkg.exports['./custom-elements.json'], pkg.customElements);
  const subpaths = Object.keys(pkg.exports).filter((key) => typeof pkg.exports[key] === 'object');
  for (const subpath of subpaths) {
    const target = (pkg.exports[subpath] as { types: string }).types.slice(2);
    assert.equal(
      entrypoints[subpath]?.resolutions.node10?.resolution?.fileName,
      `/node_modules/${pkg.name}/${target}`,
      `${subpath} under node10`,
    );
  }
});

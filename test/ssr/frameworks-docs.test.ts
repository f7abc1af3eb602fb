// docs/frameworks.md quotes the apps of this lane: each code block is a region of the file it names
// (`<!-- from: file#region -->`, the rule of scripts/doc-regions.mjs), so the page shows code that the lane
// type-checks, builds without secrets and runs. The JSX section quotes test/shipped/jsx-apps (compiled by the
// package lane against the packed tarball), and its one-line-per-framework fragment is checked line by line
// by test/shipped/jsx-frameworks.test.ts. With node:test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { withRegions } from '../../scripts/doc-regions.mjs';
import { ROOT } from '../shipped/apps.js';
import { SSR_APPS } from './recipes.js';

const PAGE = join(ROOT, 'docs/frameworks.md');

it('every code block of docs/frameworks.md equals the region of the test/ssr/apps file it names', () => {
  const text = readFileSync(PAGE, 'utf8');
  // Each block's files (one or more, each `file#region`): an app's of the lanes, or the node:http example's.
  const APP_FILE = /^(?:test\/(?:ssr\/apps|shipped\/jsx-apps)|examples\/node-http)\/\S+$/;
  const markers = [...text.matchAll(/^<!-- from: (.+) -->$/gm)].map((match) => match[1]!.split(' '));
  const quoted = markers.filter((refs) => refs.every((ref) => APP_FILE.test(ref))).flat();
  const fragments = [...text.matchAll(/^<!-- fragment: one line in any module of your app, beside its JSX -->$/gm)];
  const blocks = [...text.matchAll(/^```\w+$/gm)].length;
  assert.equal(fragments.length, 1, "the JSX section's one-line fragment, checked by test/shipped/jsx-frameworks");
  assert.equal(markers.length, markers.filter((refs) => refs.every((ref) => APP_FILE.test(ref))).length);
  assert.equal(markers.length + fragments.length, blocks, 'each code block is quoted from an app');
  for (const stack of ['next', 'nuxt', 'sveltekit', 'astro', 'react-router', 'angular'])
    assert.ok(
      quoted.some((ref) => ref!.startsWith(`test/ssr/apps/${stack}/`) && ref!.endsWith('#token-route')),
      `${stack}'s token route is on the page`,
    );
  const previous = process.cwd();
  process.chdir(ROOT);
  try {
    assert.equal(text, withRegions(text), 'docs/frameworks.md: refresh its blocks with withRegions');
  } finally {
    process.chdir(previous);
  }
});

it("each stack's section of docs/frameworks.md names the major the ssr lane builds, and a previous major built beside it", () => {
  const text = readFileSync(PAGE, 'utf8');
  const sections = text.split(/^(?=## )/m);
  for (const [name, recipe] of Object.entries(SSR_APPS)) {
    const named = `${recipe.stack} ${recipe.framework[1].replace(/^\^/, '')}`;
    if (!('files' in recipe)) {
      assert.ok(
        sections.some((section) => section.startsWith(`## ${named} `) || section.startsWith(`## ${named}\n`)),
        `${name}: a "## ${named}" heading`,
      );
      continue;
    }
    const section = sections.find((candidate) => candidate.startsWith(`## ${recipe.stack} `));
    assert.ok(section?.includes(named), `${name}: the ${recipe.stack} section says the lane builds ${named} too`);
  }
});

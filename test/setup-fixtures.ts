// After every test of the DOM projects: the fixtures it made leave the page. (Spies and stubbed globals
// are undone by the config's restoreMocks and unstubGlobals.) Registered from a setup file, this hook
// runs after each test file's own afterEach hooks.
import { fixtureCleanup } from '@open-wc/testing';
import { afterEach } from 'vitest';

afterEach(() => fixtureCleanup());

/**
 * <hub-embed> writes each distinct error to the console unless a hub-error listener handles it. The
 * tests make errors on purpose and assert on the events, so a page-level listener handles them all and
 * the output stays quiet; test/components/hub-embed-report.test.ts lets them through to test the console.
 * A flag on the window, not a module export: a setup file and a test may load this module twice.
 */
const flags = globalThis as { hubLetErrorsThrough?: boolean };
addEventListener('hub-error', (event) => {
  if (!flags.hubLetErrorsThrough) event.preventDefault();
});
afterEach(() => {
  flags.hubLetErrorsThrough = false;
});

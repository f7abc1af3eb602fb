// After every test of the DOM projects: the fixtures it made leave the page. (Spies and stubbed globals
// are undone by the config's restoreMocks and unstubGlobals.) Registered from a setup file, this hook
// runs after each test file's own afterEach hooks.
import { fixtureCleanup } from '@open-wc/testing';
import { afterEach } from 'vitest';

afterEach(() => fixtureCleanup());

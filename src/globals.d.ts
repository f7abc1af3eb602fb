/** Replaced at build and test time by vite.config.ts `define` (vitest.config.ts takes the same) with package.json's version. */
declare const __HUB_EMBED_VERSION__: string;

// Lets plain Node 20 run the TypeScript sources (the simulator CLI, the demo backend, the e2e and bench
// drivers) without a build: `node --import ./scripts/ts-register.mjs packages/hub-embed-mock/src/cli.ts`.
// Node 20 has no --experimental-strip-types (Node 22.6 added it), so scripts/ts-hooks.mjs compiles each
// source file with Vite's own TypeScript transform, the one the build and vitest use.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);

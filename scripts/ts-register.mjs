// Lets plain Node run the TypeScript sources (the simulator CLI, the demo backend, the e2e and bench
// drivers) without a build: `node --import ./scripts/ts-register.mjs packages/hub-embed-mock/src/cli.ts`.
// scripts/ts-hooks.mjs compiles each source file with Vite's own TypeScript transform, the one the build
// and vitest use, rather than Node's own type stripping, which the oldest Node that engines admits runs only
// behind a flag.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);

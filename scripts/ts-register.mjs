// Lets plain Node 20 run the TypeScript sources (the simulator CLI, the demo backend, the e2e and bench
// drivers) without a build: `node --import ./scripts/ts-register.mjs src/mock/cli.ts`.
// Node 20 has no --experimental-strip-types, so this hook strips types with the Oxc transformer that
// Vite already ships (rolldown), and maps the `.js` specifiers our sources use to their `.ts` files.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);

/**
 * One corpus backend as a process of its own, for `certify -- <command>`: `serve.ts <file>[#index]`
 * starts that file's backend on PORT with the simulator's values from HUB_* (what certify puts in the
 * command's environment), and prints its log on stdout, where certify reads it.
 */
import type { WrongBackend } from './harness.js';
import { startBackend } from './harness.js';

const [file = '', index] = (process.argv[2] ?? '').split('#');
const module = (await import(`./${file}.ts`)) as { backend?: WrongBackend; backends?: WrongBackend[] };
const backend = module.backends?.[Number(index ?? 0)] ?? module.backend;
if (!backend?.parts) throw new Error(`${file} exports no in-process backend`);
const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set: certify sets it for the command it starts`);
  return value;
};
const running = await startBackend(
  {
    apiKey: env('HUB_API_KEY'),
    baseUrl: env('HUB_BASE_URL'),
    formUrl: env('HUB_FORM_URL'),
    deliveryTimeoutMs: Number(env('HUB_DELIVERY_TIMEOUT_MS')),
    port: Number(env('PORT')),
  },
  backend.parts,
  (line) => console.log(line),
);
console.log(`corpus backend ${process.argv[2]} on ${running.origin}`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));

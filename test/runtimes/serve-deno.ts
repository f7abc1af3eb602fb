// The contract app on Deno: Deno.serve, with the peer address from info.remoteAddr.
import { createContractApp } from './contract-app.js';
import { contractConfig } from './launch-config.js';

// The little of Deno's API this uses (the repository type-checks with Node's types).
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

const app = createContractApp(await contractConfig((name) => Deno.env.get(name)));
Deno.serve(
  { port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`listening http://127.0.0.1:${port}`) },
  (request, info) => app(request, info.remoteAddr.hostname),
);

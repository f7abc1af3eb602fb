// The contract app on Bun: Bun.serve, with the peer address from server.requestIP(request).
import { createContractApp } from './contract-app.js';
import { contractConfig } from './launch-config.js';

// The little of Bun's API this uses (the repository does not install @types/bun).
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response>;
  }): { port: number };
};

const app = createContractApp(await contractConfig((name) => process.env[name]));
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request, bun) => app(request, bun.requestIP(request)?.address),
});
console.log(`listening http://127.0.0.1:${server.port}`);

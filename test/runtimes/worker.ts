// The contract app on workerd, as a Worker. A Worker sees no TCP peer; behind Cloudflare the edge puts
// the client's address in CF-Connecting-IP (and replaces any a client sent), so that header is the
// source address here. The test reaches workerd only through its own edge stand-in (edge.ts) that does
// the same; workerd reached directly, with no such header, refuses every delivery (403).
import { createContractApp, type ContractApp } from './contract-app.js';

interface Env {
  HUB_API_KEY: string;
  HUB_BASE_URL: string;
  HUB_SLOW_BASE_URL: string;
}

let app: ContractApp | undefined;

export default {
  fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    app ??= createContractApp({
      apiKey: env.HUB_API_KEY,
      baseUrl: env.HUB_BASE_URL,
      slowBaseUrl: env.HUB_SLOW_BASE_URL,
    });
    return app(request, request.headers.get('cf-connecting-ip') ?? undefined, (promise) => ctx.waitUntil(promise));
  },
};

import {
  AngularNodeAppEngine,
  createNodeRequestHandler,
  isMainModule,
  writeResponseToNodeResponse,
} from '@angular/ssr/node';
import express from 'express';
import { join } from 'node:path';
import type { HubConfig } from './app/app';
// #region token-route
// server.ts: the token route on the app's Express server, before Angular's own handler
import { createServerClient, createTokenHandler, toNodeListener } from 'hub-embed/server';

const client = createServerClient({ apiKey: process.env['HUB_API_KEY']!, baseUrl: process.env['HUB_BASE_URL']! });
const handler = createTokenHandler({
  client,
  // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
  resolveClientUserId: async () => 'user-alice',
});

const app = express();
app.post('/api/hub-token', toNodeListener(handler));
// #endregion token-route

const angularApp = new AngularNodeAppEngine();
app.use(express.static(join(import.meta.dirname, '../browser'), { maxAge: '1y', index: false, redirect: false }));
app.use((req, res, next) => {
  const context: HubConfig = { baseUrl: process.env['HUB_BASE_URL']!, formUrl: process.env['HUB_FORM_URL']! };
  angularApp
    .handle(req, context)
    .then((response) => (response ? writeResponseToNodeResponse(response, res) : next()))
    .catch(next);
});

if (isMainModule(import.meta.url)) {
  app.listen(Number(process.env['PORT'] ?? 4000), process.env['HOST'] ?? 'localhost', (error) => {
    if (error) throw error;
  });
}

export const reqHandler = createNodeRequestHandler(app);

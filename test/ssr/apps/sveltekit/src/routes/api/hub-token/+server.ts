// #region token-route
// src/routes/api/hub-token/+server.ts, with the handler of lib/server/hub-tokens.ts, in src
import { hubTokens } from '../../../lib/server/hub-tokens';
import type { RequestHandler } from './$types';

export const POST: RequestHandler = ({ request }) => hubTokens(request);
// #endregion token-route

// #region token-route
// pages/api/hub-token.ts, in src, with the handler of lib/hub-tokens.ts
import type { APIRoute } from 'astro';
import { hubTokens } from '../../lib/hub-tokens';

export const POST: APIRoute = ({ request }) => hubTokens(request);
// #endregion token-route

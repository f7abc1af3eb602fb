// #region token-route
// app/api/hub-token/route.ts, with the handler of lib/hub-tokens.ts
import { hubTokens } from '../../../lib/hub-tokens';

export const POST = (request: Request) => hubTokens(request);
// #endregion token-route

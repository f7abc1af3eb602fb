// #region token-route
// server/api/hub-token.post.ts, with the handler of server/utils/hub-tokens.ts
import { hubTokens } from '../utils/hub-tokens';

export default defineEventHandler((event) => hubTokens()(toWebRequest(event)));
// #endregion token-route

// #region token-route
// app/routes/api.hub-token.ts, with route('api/hub-token', 'routes/api.hub-token.ts') in app/routes.ts
import { hubTokens } from '../lib/hub-tokens.server';
import type { Route } from './+types/api.hub-token';

export const action = ({ request }: Route.ActionArgs) => hubTokens(request);
// #endregion token-route

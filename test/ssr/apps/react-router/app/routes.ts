import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('api/hub-token', 'routes/api.hub-token.ts'),
  route('first-view', 'routes/first-view.tsx'),
] satisfies RouteConfig;

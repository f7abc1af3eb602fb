// #region first-view-route
// server/api/first-view.get.ts: the element with its first view, drawn for the request's user
import { renderFirstView } from 'hub-embed/server';
import { hubTokens } from '../utils/hub-tokens';

export default defineEventHandler((event) => {
  const config = useRuntimeConfig(event);
  return renderFirstView({
    tokens: hubTokens(),
    request: toWebRequest(event),
    element: { tokenEndpoint: '/api/hub-token', baseUrl: config.public.hubBaseUrl, formUrl: config.public.hubFormUrl },
    locale: 'en',
  });
});
// #endregion first-view-route

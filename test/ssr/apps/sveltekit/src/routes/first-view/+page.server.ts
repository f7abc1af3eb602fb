// #region first-view-load
// src/routes/first-view/+page.server.ts: the element with its first view, drawn for this request's user
import { HUB_BASE_URL, HUB_FORM_URL } from '$app/env/private';
import { hubTokens } from '../../lib/server/hub-tokens';
import { renderFirstView } from 'hub-embed/server';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ request }) => ({
  firstView: await renderFirstView({
    tokens: hubTokens,
    request,
    element: { tokenEndpoint: '/api/hub-token', baseUrl: HUB_BASE_URL, formUrl: HUB_FORM_URL },
    locale: 'en',
  }),
});
// #endregion first-view-load

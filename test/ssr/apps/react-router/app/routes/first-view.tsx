// #region first-view
// app/routes/first-view.tsx, with route('first-view', 'routes/first-view.tsx') in app/routes.ts
import 'hub-embed/define';
import { renderFirstView } from 'hub-embed/server';
import { hubTokens } from '../lib/hub-tokens.server';
import type { Route } from './+types/first-view';

// On the server: the element with its first view, drawn for this request's user.
export const loader = async ({ request }: Route.LoaderArgs) => ({
  firstView: await renderFirstView({
    tokens: hubTokens,
    request,
    element: { tokenEndpoint: '/api/hub-token', baseUrl: process.env.HUB_BASE_URL, formUrl: process.env.HUB_FORM_URL },
    locale: 'en',
  }),
});

export default function FirstView({ loaderData }: Route.ComponentProps) {
  // React leaves what it did not render alone: hydration keeps the view, and the element takes it over.
  return <main dangerouslySetInnerHTML={{ __html: loaderData.firstView }} />;
}
// #endregion first-view

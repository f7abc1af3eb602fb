// #region first-view
// app/first-view/page.tsx: a server component, the element with its first view drawn for this request's user
import { headers } from 'next/headers';
import { renderFirstView } from 'hub-embed/server';
import { hubTokens } from '../../lib/hub-tokens';
import { Registration } from './registration';

export default async function FirstViewPage() {
  const firstView = await renderFirstView({
    tokens: hubTokens,
    // Your session lookup reads the page request's headers (its cookie), as it does the token request's.
    request: new Request('http://localhost/first-view', { headers: await headers() }),
    element: { tokenEndpoint: '/api/hub-token', baseUrl: process.env.HUB_BASE_URL, formUrl: process.env.HUB_FORM_URL },
    locale: 'en',
  });
  // React leaves what it did not render alone: hydration keeps the view, and the element takes it over.
  return (
    <main>
      <div dangerouslySetInnerHTML={{ __html: firstView }} />
      <Registration />
    </main>
  );
}
// #endregion first-view

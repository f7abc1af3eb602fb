// #region page
// app/routes/home.tsx
import { useState } from 'react';
import 'hub-embed/define';
import { HubEmbed } from 'hub-embed/react';
import type { Route } from './+types/home';

// On the server, on each request: the service's addresses come from the environment the server starts with.
export const loader = () => ({ baseUrl: process.env.HUB_BASE_URL!, formUrl: process.env.HUB_FORM_URL! });

export default function Home({ loaderData }: Route.ComponentProps) {
  const [status, setStatus] = useState('');
  return (
    <main>
      <p role="status">{status}</p>
      <HubEmbed
        tokenEndpoint="/api/hub-token"
        baseUrl={loaderData.baseUrl}
        formUrl={loaderData.formUrl}
        onHubReady={(event) => setStatus(`${event.detail.matching} matching tables ready.`)}
      />
    </main>
  );
}
// #endregion page

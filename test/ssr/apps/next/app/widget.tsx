// #region widget
'use client';
// app/widget.tsx: <HubEmbed> in a client component, beside the registration
import { useState } from 'react';
import 'hub-embed/define';
import { HubEmbed } from 'hub-embed/react';

export function Widget({ baseUrl, formUrl }: { baseUrl: string; formUrl: string }) {
  const [status, setStatus] = useState('');
  return (
    <>
      <p role="status">{status}</p>
      <HubEmbed
        tokenEndpoint="/api/hub-token"
        baseUrl={baseUrl}
        formUrl={formUrl}
        tags={['建筑']}
        onHubReady={(event) => setStatus(`${event.detail.matching} matching tables ready.`)}
      />
    </>
  );
}
// #endregion widget

/** A bare tag: server rendering and hydration keep its attributes, written as in HTML. */
export function Tag({ baseUrl, formUrl }: { baseUrl: string; formUrl: string }) {
  return <hub-embed token-endpoint="/api/hub-token" base-url={baseUrl} form-url={formUrl} />;
}

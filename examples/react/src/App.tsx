import { useEffect, useState } from 'react';
// Registers the elements, once for the whole app; hub-embed/react holds their React components.
import 'hub-embed/define';
import { HubEmbed } from 'hub-embed/react';

interface Session {
  user: { name: string } | null;
  users: { id: string; name: string }[];
  baseUrl: string;
  formUrl: string;
}

export function App() {
  const [session, setSession] = useState<Session>();
  const [status, setStatus] = useState('');

  useEffect(() => {
    fetch('/api/session')
      .then((response) => response.json() as Promise<Session>)
      .then(setSession, (error: Error) => setStatus(error.message));
  }, []);

  if (!session) return <p role="status">{status || 'Loading…'}</p>;
  if (!session.user)
    return (
      <main>
        <h1>Sign in</h1>
        {/* The Express example's sign-in route: it starts the session and comes back here. */}
        <form method="post" action="/sign-in">
          {session.users.map((user) => (
            <button key={user.id} name="user" value={user.id}>
              {user.name}
            </button>
          ))}
        </form>
      </main>
    );

  return (
    <main>
      <header>
        Signed in as {session.user.name} · <a href="/points">Points</a>
      </header>
      <p role="status">{status}</p>
      <HubEmbed
        tokenEndpoint="/api/hub-token"
        baseUrl={session.baseUrl}
        formUrl={session.formUrl}
        openMode="modal"
        onHubReady={(event) => setStatus(`${event.detail.matching} matching tables ready.`)}
        onHubFormMessage={(event) => {
          const message = event.detail.data as { type?: string; ok?: boolean } | null;
          if (message?.type === 'charge')
            setStatus(message.ok ? 'Paid: see the Points page.' : 'The payment was declined.');
        }}
        onHubError={(event) => setStatus(`Error (${event.detail.error.kind}): ${event.detail.error.message}`)}
      />
    </main>
  );
}

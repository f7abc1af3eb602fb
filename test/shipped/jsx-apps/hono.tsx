// Compiled by test/shipped/jsx-frameworks.test.ts where the packed hub-embed is installed beside Hono, with
// jsxImportSource hono/jsx: docs/frameworks.md's one line for Hono, whose JSX renders on the server.
import type {} from 'hub-embed/jsx/hono';

export const page = (
  <main>
    <hub-embed token-endpoint="/api/hub-token" tags="delivery,food" limit={20} matches-only class="widget" />
    <script type="module" src="/widget.js" />
  </main>
);
// @ts-expect-error a misspelt attribute (TypeScript checks no dashed name: `token-endpoit` would pass)
export const typo = <hub-embed limt={20} />;
// @ts-expect-error Hono's renderer hears no hub-* event: the page's script listens
export const handler = <hub-embed onhub-ready={() => undefined} />;

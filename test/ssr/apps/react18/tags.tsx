// Compiled by test/ssr/react-types.test.ts under React 18's types, `skipLibCheck: false`, without @lit/react:
// React 18 sets a custom element's props as attributes (text) and listens to none of its events.
import type {} from 'hub-embed/react';
import { HubEmbed } from 'hub-embed/react';

export const attributes = (
  <hub-embed
    token-endpoint="/api/hub-token"
    base-url="https://hub.example.com"
    form-url="https://forms.example.com"
    tags="delivery,design"
    limit="20"
    open-mode="inline"
  />
);
// @ts-expect-error React 18 writes tokenEndpoint as an attribute the element does not read
export const property = <hub-embed tokenEndpoint="/api/hub-token" />;
// @ts-expect-error React 18 never calls an onhub-ready handler
export const handler = <hub-embed onhub-ready={() => undefined} />;

// The component sets properties and listens to events on React 18 too.
export const component = (
  <HubEmbed
    tokenEndpoint="/api/hub-token"
    tags={['delivery']}
    onHubReady={(event) => event.detail.matching}
    // @ts-expect-error the detail of hub-table-select has no tags
    onHubTableSelect={(event) => event.detail.tags}
  />
);

// Compiled by test/ssr/react-types.test.ts under React 19's types, `skipLibCheck: false`, without @lit/react:
// React 19 sets properties on custom elements and listens to `on<event>` props.
import type {} from 'hub-embed/react';
import { HubEmbed } from 'hub-embed/react';

export const properties = (
  <hub-embed
    tokenEndpoint="/api/hub-token"
    baseUrl="https://hub.example.com"
    form-url="https://forms.example.com"
    tags={['delivery']}
    limit={20}
    onhub-ready={(event) => event.detail.matching}
  />
);
// @ts-expect-error tags is a string[]
export const wrongTags = <hub-embed tags="delivery" />;
// @ts-expect-error the detail of hub-ready has no selected
export const wrongDetail = <hub-embed onhub-ready={(event) => event.detail.selected} />;

export const component = (
  <HubEmbed tokenEndpoint="/api/hub-token" limit={20} onHubReady={(event) => event.detail.tables.length} />
);
// @ts-expect-error limit is a number
export const wrongLimit = <HubEmbed limit="20" />;

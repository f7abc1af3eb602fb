// Compiled by test/shipped/jsx-frameworks.test.ts where the packed hub-embed is installed beside Solid, with
// jsxImportSource solid-js: docs/frameworks.md's one line for Solid.
import type {} from 'hub-embed/jsx/solid';

export const widget = (
  <hub-embed
    token-endpoint="/api/hub-token"
    tags={['delivery']}
    limit={20}
    class="widget"
    on:hub-ready={(event) => event.detail.matching}
    on:hub-table-select={(event) => event.detail.table.tags.includes('paid') && event.preventDefault()}
  />
);
// @ts-expect-error a misspelt property (TypeScript checks no dashed name: `token-endpoit` would pass)
export const typo = <hub-embed tokenEndpont="/api/hub-token" />;
// @ts-expect-error the detail of hub-ready has no selected
export const wrongEvent = <hub-embed on:hub-ready={(event) => event.detail.selected} />;
// @ts-expect-error tags is a string[]
export const wrongType = <hub-embed tags="delivery" />;

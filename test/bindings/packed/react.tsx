// Compiled by scripts/check-snippets.mjs in an empty project where the packed hub-embed is installed:
// the React bindings' types, used right and (with @ts-expect-error) wrong, under strict.
import { useRef } from 'react';
import { HubEmbed, HubTagFilter, type HubEmbedJsxProps } from 'hub-embed/react';
import type { HubEmbed as HubEmbedElement } from 'hub-embed';

export function WithComponents() {
  const ref = useRef<HubEmbedElement>(null);
  return (
    <>
      <HubEmbed
        ref={ref}
        tokenEndpoint="/api/hub-token"
        baseUrl="https://hub.example.com"
        formUrl="https://forms.example.com"
        tags={['delivery']}
        limit={20}
        openMode="modal"
        onHubReady={(event) => event.detail.tables.map((table) => table.short_code)}
        onHubTableSelect={(event) => event.detail.table.name.length > 3 && event.preventDefault()}
        onHubError={(event) => console.log(event.detail.error.kind)}
      />
      {/* @ts-expect-error tags is a string[] */}
      <HubEmbed tags="delivery" />
      {/* @ts-expect-error limit is a number */}
      <HubEmbed limit="20" />
      {/* @ts-expect-error openMode is 'modal' | 'inline' | 'navigate' */}
      <HubEmbed openMode="popup" />
      {/* @ts-expect-error the detail of hub-tags-change has no tables */}
      <HubTagFilter onHubTagsChange={(event) => event.detail.tables} />
    </>
  );
}

export function WithReact19Jsx() {
  const props: HubEmbedJsxProps = { tokenEndpoint: '/api/hub-token' };
  return (
    <>
      <hub-embed
        {...props}
        base-url="https://hub.example.com"
        tags={['delivery']}
        onhub-ready={(event) => event.detail.offered}
      />
      <hub-tag-filter offered={['a']} tags={[]} onhub-tags-change={(event) => event.detail.tags.join()} />
      {/* @ts-expect-error tags is a string[] */}
      <hub-embed tags="delivery" />
      {/* @ts-expect-error the detail of hub-ready has no selected */}
      <hub-embed onhub-ready={(event) => event.detail.selected} />
    </>
  );
}

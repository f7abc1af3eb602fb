// Compiled by scripts/check-snippets.mjs as a program of its own, against the packed hub-embed: the one
// type import a React 19 app needs to write the tags in JSX (the README shows these lines).
import 'hub-embed/define';
import type {} from 'hub-embed/react';

export const widget = (
  <hub-embed
    token-endpoint="/api/hub-token"
    base-url="https://hub.example.com"
    form-url="https://forms.example.com"
    openMode="inline"
    onhub-ready={(event) => event.detail.offered.join()}
  />
);
// @ts-expect-error openMode is 'modal' | 'inline' | 'navigate'
export const wrong = <hub-embed openMode="popup" />;

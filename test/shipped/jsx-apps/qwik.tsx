// Compiled by test/shipped/jsx-frameworks.test.ts where the packed hub-embed is installed beside Qwik, with
// jsxImportSource @builder.io/qwik: docs/frameworks.md's one line for Qwik, and its registration and handler
// in a useVisibleTask$ (a component's module top level runs on the server only).
// #region widget
// A Qwik component (src/routes or src/components of your app)
import { component$, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type {} from 'hub-embed/jsx/qwik';
import type { HubEmbed } from 'hub-embed';

export const Widget = component$(() => {
  const widget = useSignal<HubEmbed>();
  const status = useSignal('');
  // In the browser only, once the widget is in view: this module's top level runs on the server alone.
  useVisibleTask$(async () => {
    await import('hub-embed/define');
    widget.value!.addEventListener('hub-ready', (event) => (status.value = `${event.detail.matching} ready`));
  });
  return (
    <>
      <p role="status">{status.value}</p>
      <hub-embed ref={widget} token-endpoint="/api/hub-token" tags="delivery,food" limit={20} class="widget" />
    </>
  );
});
// #endregion widget

export const Typo = component$(() => (
  // @ts-expect-error a misspelt attribute (TypeScript checks no dashed name: `token-endpoit` would pass)
  <hub-embed limt={20} />
));

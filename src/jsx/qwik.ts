// hub-embed/jsx/qwik: the five tags in Qwik's JSX, for `import type {} from 'hub-embed/jsx/qwik'`. Types only
// (the entry has no JavaScript), and it augments Qwik's JSX namespace alone.
// Qwik renders on the server, where a tag's props become attributes, as text; it types an unlisted tag from
// HTMLElementTagNameMap (the element's own fields), which refuses the attributes. Qwik's loader looks an
// event's handler up under the camelCase of its name, so no `on…$` prop hears `hub-ready`: listen in a
// useVisibleTask$ on the element's ref (docs/frameworks.md), where the registration goes too.
import type { IntrinsicHTMLElements } from '@builder.io/qwik';
import type { HubElementMembers } from '../components/members.js';

/** The JSX props of a tag under Qwik: Qwik's own for it, and its attributes as text, numbers or flags. */
export type HubQwikProps<
  Tag extends keyof HubElementMembers,
  M extends HubElementMembers[Tag] = HubElementMembers[Tag],
> = IntrinsicHTMLElements[Tag] & { [A in M['attributes']]?: string | number | boolean };

declare module '@builder.io/qwik' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace QwikJSX {
    interface IntrinsicElements {
      'hub-embed': HubQwikProps<'hub-embed'>;
      'hub-form-frame': HubQwikProps<'hub-form-frame'>;
      'hub-table-card': HubQwikProps<'hub-table-card'>;
      'hub-table-grid': HubQwikProps<'hub-table-grid'>;
      'hub-tag-filter': HubQwikProps<'hub-tag-filter'>;
    }
  }
}

// The templates of <hub-embed>'s body: the tag filter, the grid and a load's error.
import { html, nothing } from 'lit';
import type { HubError, HubErrorKind } from '../../core/errors.js';
import type { PublishedTable } from '../../core/types.js';
import type { HubElement } from '../base.js';
import { CARD_PARTS } from '../hub-table-grid/hub-table-grid.js';
import { fill, type WidgetStrings } from '../strings.js';
import type { FormLauncher } from './form-launcher.js';
import type { TableLoader } from './table-loader.js';

/** What every child of the body takes from <hub-embed>: its language and its text overrides. */
type BodyElement = Pick<HubElement, 'locale' | 'strings'>;
type Listener<Detail> = (event: CustomEvent<Detail>) => void;

/** The chips of the `offered` tags, `tags` pressed; the user's new selection goes to `changed`. */
export function filterView(
  element: BodyElement,
  offered: string[],
  tags: string[],
  changed: Listener<{ tags: string[] }>,
) {
  return html`
    <hub-tag-filter
      exportparts="toolbar,chip,chip-all,chip-pressed"
      .locale=${element.locale}
      .strings=${element.strings}
      .offered=${offered}
      .tags=${tags}
      @hub-tags-change=${changed}
    ></hub-tag-filter>
  `;
}

/**
 * The grid of `tables`, or without them its loading state (a list that came before the tags waits), as
 * `loader` and `forms` are: busy while a list loads, a card busy while its form opens.
 */
export function gridView(
  element: BodyElement & { readonly matchesOnly: boolean },
  tables: PublishedTable[] | undefined,
  loader: Pick<TableLoader, 'listedTags' | 'busy'>,
  forms: Pick<FormLauncher, 'opening' | 'intent'>,
  selected: Listener<{ table: PublishedTable }>,
  tagsChanged: Listener<{ tags: string[] }>,
) {
  return html`
    <hub-table-grid
      exportparts="count,grid,more,skeleton,empty,show-all,${CARD_PARTS}"
      .locale=${element.locale}
      .strings=${element.strings}
      .tables=${tables ?? []}
      .tags=${loader.listedTags}
      .loading=${!tables || loader.busy}
      .opening=${forms.opening}
      ?matches-only=${element.matchesOnly}
      @pointerover=${forms.intent}
      @focusin=${forms.intent}
      @touchstart=${forms.intent}
      @hub-table-select=${selected}
      @hub-tags-change=${tagsChanged}
    ></hub-table-grid>
  `;
}

/**
 * What <hub-embed> shows of a load's error, in the texts `t`. A config error names what to fix, and a
 * signed-out user (`unauthorized`) is told so: neither offers a retry, which cannot help until the page
 * changes or the user signs in. The texts are read as what they are, a table that lacks some kinds
 * (`invalid-response` and `aborted` show `api`'s), so the type says which kinds have words of their own.
 */
export function errorView({ kind, message }: HubError, t: WidgetStrings, retry: () => void) {
  return html`
    <div part="error" role="alert">
      ${kind === 'config' ? fill(t.config, message) : ((t as Partial<Record<HubErrorKind, string>>)[kind] ?? t.api)}
      ${kind === 'config' || kind === 'unauthorized' ? nothing : html`<button part="retry" @click=${retry}>${t.retry}</button>`}
    </div>
  `;
}

// The one description of a card's markup, for the elements (with Lit's `html`) and for the server's first
// view (with an escaping string tag, src/first-view/markup-tag.ts). It imports no DOM and no Lit, so
// that the server can use it as it is; a test renders both from the same tables and compares them.
import { safeHttpUrl } from '../../core/urls.js';
import type { PublishedTable } from '../../core/types.js';

/**
 * A template tag: Lit's `html`, or the server's. A tagged template's strings are one array per call site,
 * whatever the tag, so Lit's template cache works through these functions as through its own templates.
 * Bindings are Lit's: `attr=${}`, `?attr=${}` (boolean), `@event=${}` (a listener, which the server leaves
 * out) and text `${}`. The parameter is named `html` so that the build's template minifier
 * (build/minify-templates.ts, which knows Lit's tags by name) takes these templates' whitespace out too.
 */
export type MarkupTag<Result> = (strings: TemplateStringsArray, ...values: unknown[]) => Result;

/**
 * One table's card. `broken`: an icon URL that failed to load, for which the placeholder shows. `tags`: the
 * content of the tag list, each tag a `<span part="tag">` (tagMarkup): the elements pass a fragment of
 * plain nodes instead, as a grid draws a thousand cards and a template and a part per tag cost more than
 * the rest of the card.
 */
export function cardMarkup<Result>(
  html: MarkupTag<Result>,
  table: PublishedTable,
  busy: boolean,
  broken: string | undefined,
  tags: unknown,
): Result {
  const name = String(table.name ?? '');
  const icon = safeHttpUrl(table.icon);
  return html`
    <div part="card" role="button" tabindex="0" aria-busy=${busy}>
      ${
        icon && icon !== broken
          ? html`<img part="icon" src=${icon} alt="" loading="lazy" fetchpriority="low" width="40" height="40" />`
          : // The first code point, not the first UTF-16 unit: an emoji or a rare CJK character stays whole.
            // eslint-disable-next-line @typescript-eslint/no-misused-spread
            html`<span part="icon icon-placeholder" aria-hidden="true">${[...name][0]}</span>`
      }
      <span part="name">${name}</span>
      <span part="industry">${table.industry}</span>
      <span part="tags">${tags}</span>
    </div>
  `;
}

/** The part of each tag of a card's tag list: the elements' fragment and tagMarkup both write it. */
export const TAG_PART = 'tag';

/** One tag of a card's tag list, as the server writes it (the elements build the same node, see cardMarkup). */
export function tagMarkup<Result>(html: MarkupTag<Result>, tag: string): Result {
  return html`<span part=${TAG_PART}>${tag}</span>`;
}

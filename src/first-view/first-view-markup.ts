// The first view's markup: one <hub-embed> with its filter and the first screen of its grid as declarative
// shadow DOM, each element's shadow root in a <template shadowrootmode> of its own. The cards come from the
// elements' own description (card-markup-template.ts); the chips (chips-markup.ts) and the frame around
// them (the widget's body, the grid's count and lists) are written here as the elements write them, which
// test/components/first-view-drift.test.ts holds them to.
import type { CSSResult } from 'lit';
import type { PublishedTable } from '../core/types.js';
import { cardMarkup, tagMarkup } from '../components/hub-table-card/card-markup-template.js';
import { styles as cardStyles } from '../components/hub-table-card/hub-table-card.styles.js';
import { styles as embedStyles } from '../components/hub-embed/hub-embed.styles.js';
import { countMatches } from '../components/hub-table-grid/matches.js';
import { SCREEN_CARDS } from '../components/hub-table-grid/screens.js';
import { styles as gridStyles } from '../components/hub-table-grid/hub-table-grid.styles.js';
import { styles as filterStyles } from '../components/hub-tag-filter/hub-tag-filter.styles.js';
import { shared } from '../components/shared.styles.js';
import { fill, type WidgetStrings } from '../components/strings.js';
import { chipsMarkup } from './chips-markup.js';
import { escapeAttribute, html, Markup } from './markup-tag.js';

/** What the first view shows, read from the service's answers and the element's settings. */
export interface FirstViewContent {
  /** The attributes of <hub-embed> (embedElement). */
  attributes: Attributes;
  strings: WidgetStrings;
  /** The published tags, offered as chips. */
  offered: readonly string[];
  /** The published list, in the service's order. */
  tables: readonly PublishedTable[];
  /** The tags selected (the element's `tags`). */
  selected: readonly string[];
  matchesOnly: boolean;
  /** A nonce for the <style> elements, for a page whose Content-Security-Policy names one. */
  styleNonce?: string;
}

/**
 * The attribute of the view's body in <hub-embed>'s shadow root, which the element removes as it takes the
 * view over. The filter and the grid inside are <div>s holding the elements' shadow
 * trees, not the elements: an element would upgrade and draw into the server's tree.
 */
export const FIRST_VIEW = 'data-first-view';

/** The parts <hub-embed> forwards from its filter and its grid (as hub-embed.ts and hub-table-grid.ts do). */
const FILTER_PARTS = 'toolbar,chip,chip-all,chip-pressed';
const GRID_PARTS = 'count,grid,more,skeleton,empty,show-all,card,icon,icon-placeholder,name,industry,tags,tag';

/** An element's stylesheets as the text of one <style>. The styles are the package's own, never a page's. */
function cssOf(...sheets: CSSResult[]): string {
  const text = sheets.map((sheet) => sheet.cssText).join('\n');
  // A stylesheet that closed its <style> would end the first view's markup there.
  if (/<\/style/i.test(text)) throw new Error('A stylesheet of the elements holds "</style".');
  return text;
}

/**
 * The widget's styles, and one rule of the view's own: what the element renders beside the view (its
 * loading state, then its content: before the view, as Lit renders before a root's first child, or after
 * it, as the <script> bundles' Lit does) is laid out with it, unseen, until the element takes the view over by
 * removing it (hub-embed/first-view-takeover.ts), this rule with it, in one frame.
 */
const EMBED_CSS = `${cssOf(shared, embedStyles)}\n:has(~[${FIRST_VIEW}]),[${FIRST_VIEW}]~*{visibility:hidden}`;
const FILTER_CSS = cssOf(shared, filterStyles);
const GRID_CSS = cssOf(shared, cardStyles, gridStyles);

/** A shadow root's markup: its styles, then its content. */
function shadowRoot(css: string, content: Markup, nonce: string | undefined): Markup {
  return html`<template shadowrootmode="open">${styleOf(css, nonce)}${content}</template>`;
}

/** A <style> of the view's, with the page's nonce. */
function styleOf(css: string, nonce: string | undefined): Markup {
  return new Markup(`<style${nonce === undefined ? '' : ` nonce="${escapeAttribute(nonce)}"`}>${css}</style>`);
}

/** One card of the grid: a list item holding the card's markup, as the grid's card pool makes it. */
function card(table: PublishedTable): Markup {
  const tags = table.tags.map((tag) => tagMarkup(html, tag));
  return html`<div role="listitem">${cardMarkup(html, table, false, undefined, tags)}</div>`;
}

/** A card list of the grid, holding its first screen's cards (`label`: else the divider names it). */
function list(id: 'matches' | 'others', tables: readonly PublishedTable[], label?: string): Markup {
  const screen = html`<div class="screen">${tables.map(card)}</div>`;
  return label === undefined
    ? html`<div id=${id} part="grid" role="list" aria-labelledby="more" aria-busy="false">${screen}</div>`
    : html`<div id=${id} part="grid" role="list" aria-label=${label} aria-busy="false">${screen}</div>`;
}

/** The grid's shadow root content: the count, then the first screen of cards, or the empty state. */
function gridContent({ strings: t, tables, selected, matchesOnly }: FirstViewContent): Markup {
  const filtered = selected.length > 0;
  const matched = countMatches(tables, selected);
  const others = matchesOnly ? 0 : tables.length - matched;
  let count = fill(t.results, tables.length);
  if (filtered) count = fill(t.matching, matched) + (matchesOnly ? '' : ` · ${fill(t.more, others)}`);
  let body: Markup;
  if (!matched && !others)
    body = filtered
      ? html`<p part="empty">${t.noMatch}<button part="show-all">${t.showAll}</button></p>`
      : html`<p part="empty">${t.empty}</p>`;
  else {
    // The first screen only: the element draws the rest below it, as it does after its own first task.
    const first = Math.min(SCREEN_CARDS, matched + others);
    const matches = matched ? list('matches', tables.slice(0, Math.min(first, matched)), t.tables) : '';
    const rest =
      others && first > matched
        ? html`<p part="more" id="more">${t.moreTables}</p>${list('others', tables.slice(matched, first))}`
        : '';
    body = html`${matches}${rest}`;
  }
  return html`<p part="count" role="status">${count}</p>${body}`;
}

/** Attributes by name, as they are written: a string value, or true for a bare one. */
export type Attributes = ReadonlyArray<readonly [name: string, value: string | true]>;

/**
 * The settings the view was drawn for, as the element reads them from `attributes`: its base-url, form-url
 * and tags, in that order, written as the element writes its own when it takes the view over
 * (first-view-takeover.ts). A view for other ones is dropped with a console error naming them: with another
 * service or other tags its cards are not the element's, and a press handed on would open another table.
 * (Another limit or matches-only only cuts a list short: the cards both draw are the same ones.)
 */
export function viewSettings(attributes: Attributes): string {
  const text = (name: string) => {
    const written = attributes.find(([key]) => key === name)?.[1];
    return typeof written === 'string' ? written : '';
  };
  // As the element's `tags` converter reads the attribute: comma-separated, trimmed, blanks left out.
  const tags = text('tags')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  return JSON.stringify([text('base-url'), text('form-url'), tags]);
}

/** `<hub-embed>` with `attributes` (names the caller wrote, values escaped here), holding `inside`. */
export function embedElement(attributes: Attributes, inside = ''): string {
  const written = attributes.map(([name, value]) =>
    value === true ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`,
  );
  return `<hub-embed${written.join('')}>${inside}</hub-embed>`;
}

/** The whole <hub-embed>, its first view inside it. */
export function firstViewMarkup(content: FirstViewContent): string {
  const { strings: t, offered, selected, styleNonce: nonce } = content;
  const chips = chipsMarkup(t, offered, selected);
  const filter = offered.length
    ? html`<div exportparts=${FILTER_PARTS}>${shadowRoot(FILTER_CSS, chips, nonce)}</div>`
    : '';
  const grid = html`<div exportparts=${GRID_PARTS} ?matches-only=${content.matchesOnly}>${shadowRoot(
    GRID_CSS,
    gridContent(content),
    nonce,
  )}</div>`;
  // The widget's styles inside the body, and last in it: the element takes the view over by removing the
  // body, and finds a focused chip or card by its host's place among the body's children, as in its own.
  const body = html`<div part="body" data-first-view=${viewSettings(content.attributes)}>${filter}${grid}${styleOf(
    EMBED_CSS,
    nonce,
  )}</div>`;
  return embedElement(content.attributes, html`<template shadowrootmode="open">${body}</template>`.html);
}

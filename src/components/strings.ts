import type { HubErrorKind } from '../core/errors.js';
import { localeFor, type HubLocale } from '../core/locale.js';

export type { HubLocale };

/**
 * Every text the elements show. `{n}` is replaced by a number or a name. Error texts are keyed by
 * `HubError.kind` (`invalid-response` shows `api`); `config` wraps the developer-facing message, which
 * names the attribute to fix and has no Retry button (retrying cannot fix a page), nor has `unauthorized`
 * (the user is signed out: signing in can); the others stop short of "retry" because a Retry button follows them.
 */
export interface HubStrings extends Record<Exclude<HubErrorKind, 'aborted' | 'invalid-response'>, string> {
  all: string;
  filter: string;
  tables: string;
  results: string;
  /** The count with tags selected: the matching tables, then (after " · ") the others the service added. */
  matching: string;
  more: string;
  /** The divider before the tables that match none of the selected tags. */
  moreTables: string;
  /** The empty state of `matches-only` when nothing matched, and its control that clears the selection. */
  noMatch: string;
  showAll: string;
  empty: string;
  loading: string;
  retry: string;
  /** The form's own texts (the close control, the iframe's title, the load error): in the form half. */
  close: string;
  form: string;
  frameError: string;
}

/** The texts that only an open form shows: they come with the form half, not in the first file. */
export type FormStringKey = 'close' | 'form' | 'frameError';

/** The texts of the widget without an open form. */
export type WidgetStrings = Omit<HubStrings, FormStringKey>;

/**
 * A table as every entry has it. Only the bridge can show the `no-host` error, so its text comes with the
 * bridge (addTexts, src/webview/host-link.ts), not in the first file of a page without it.
 */
type BundledStrings = Omit<WidgetStrings, 'no-host'> & Partial<Pick<WidgetStrings, 'no-host'>>;

/**
 * English, the one table in the first file. Every other locale's is a module of the later half
 * (src/components/locales/), whole with the form's texts and `no-host`'s, which an element of a page in
 * that language loads as it connects (texts-loader.ts) and waits for before it shows any text.
 */
const en: BundledStrings = {
  all: 'All',
  filter: 'Filter by tag',
  tables: 'Tables',
  results: '{n} results',
  matching: '{n} matching',
  more: '{n} more',
  moreTables: 'More tables',
  noMatch: 'No table matches the selected tags.',
  showAll: 'Show all',
  empty: 'No tables found.',
  loading: 'Loading…',
  retry: 'Retry',
  token: 'Could not sign you in.',
  unauthorized: 'You are signed out.',
  network: 'Network error.',
  timeout: 'The service timed out.',
  api: 'The service had a problem.',
  config: 'Setup error: {n}',
};

/** The tables in, by locale: English from the start, the others once the later half brought them. */
const widgetStrings: Partial<Record<HubLocale, BundledStrings>> = { en };

/**
 * Adds texts to the tables: a feature's that only some entries carry (the bridge's `no-host`) to a table
 * that is in, or the whole table of a locale that was not (the later half's).
 */
export function addTexts(texts: Partial<Record<HubLocale, Partial<HubStrings>>>): void {
  for (const [locale, table] of Object.entries(texts) as [HubLocale, BundledStrings][])
    widgetStrings[locale] = { ...widgetStrings[locale], ...table };
}

/** Whether the table of `locale` (a `HubLocale`, as `localeFor` gives) is in. */
export const hasTexts = (locale: HubLocale): boolean => !!widgetStrings[locale];

/**
 * Of a table per locale, the one `localeFor` picks, else English (a locale whose table is not in yet).
 * The widget's texts by default; the form half passes the form's own tables.
 */
export function stringsFor<T = WidgetStrings>(
  locale?: string,
  tables = widgetStrings as Partial<Record<HubLocale, T>>,
): T {
  return tables[localeFor(locale)] ?? tables.en!;
}

/** Fills `{n}`; split/join, because String.replace would expand `$&` in hostile names. */
export function fill(text: string, value: string | number): string {
  return text.split('{n}').join(String(value));
}

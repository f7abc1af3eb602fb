/**
 * The one base of the console pages: the locale's strings, a status line announced to screen readers,
 * and `run()`, which shows what an action did or why it failed.
 */
import { LitElement, html } from 'lit';
import { STRINGS, type Locale, type Strings } from './strings.js';
import { shared } from './styles.js';

/** Lit's declaration of internal reactive state for each of `names` (no attribute). */
export function states(...names: string[]): Record<string, { state: true }> {
  return Object.fromEntries(names.map((name) => [name, { state: true as const }]));
}

export class ConsolePage extends LitElement {
  static override styles = [shared];
  static override properties = { locale: {}, ...states('message', 'failed') };

  locale: Locale = 'en';
  protected message = '';
  protected failed = false;

  protected get t(): Strings {
    return STRINGS[this.locale] ?? STRINGS.en;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.run(() => this.load());
  }

  /** What the page fetches when it opens and after each action. */
  protected async load(): Promise<void> {}

  protected async run<T>(work: () => Promise<T>, done?: (value: T) => string): Promise<T | undefined> {
    try {
      const value = await work();
      this.failed = false;
      this.message = done ? done(value) : '';
      return value;
    } catch (error) {
      this.failed = true;
      this.message = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  }

  /** Runs an action, then reloads the page's data; the status says what happened. */
  protected act<T>(work: () => Promise<T>, done?: (value: T) => string): Promise<T | undefined> {
    return this.run(
      async () => {
        const value = await work();
        await this.load();
        return value;
      },
      done ?? (() => this.t.done),
    );
  }

  protected renderStatus() {
    return html`<p class="status ${this.failed ? 'error' : ''}" role="status">${this.message}</p>`;
  }

  /** A pager for a `{total, page, page_size}` answer. */
  protected renderPager(page: { total: number; page: number; page_size: number }, go: (page: number) => void) {
    const pages = Math.max(1, Math.ceil(page.total / page.page_size));
    return html`<div class="row">
      <button ?disabled=${page.page <= 1} @click=${() => go(page.page - 1)}>${this.t.prev}</button>
      <span>${this.t.pageOf(page.page, pages)}</span>
      <button ?disabled=${page.page >= pages} @click=${() => go(page.page + 1)}>${this.t.next}</button>
    </div>`;
  }
}

/** A data table: its caption, its column heads, and the rows the page renders. */
export function dataTable(id: string, caption: string, heads: string[], rows: unknown) {
  return html`<table id=${id}>
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        ${heads.map((head) => html`<th scope="col">${head}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** A row action: its accessible name says which row (e.g. "Disable k3"), the text says what. */
export function rowAction(label: string, row: string | number, onClick: () => unknown, disabled = false) {
  return html`<button ?disabled=${disabled} aria-label="${label} ${row}" @click=${onClick}>${label}</button>`;
}

/** The value of the named field of a submitted form. */
export function field(event: Event, name: string): string {
  const form = event.target as HTMLFormElement;
  const element = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  return element?.value ?? '';
}

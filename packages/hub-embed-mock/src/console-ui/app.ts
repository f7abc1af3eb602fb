/**
 * <hub-console>: the console's frame. One page per hash (#keys, #points, ...), a short nav
 * marked with aria-current, the page's h1 focused on each change (so keyboard and screen-reader users
 * land on the new page), and the language (zh-CN or en) kept in localStorage.
 */
import { LitElement, css } from 'lit';
import { html, literal } from 'lit/static-html.js';
import { states } from './page.js';
import { STRINGS, type Locale, type Strings } from './strings.js';
import { shared } from './styles.js';

export const PAGES = ['keys', 'points', 'webhooks', 'test', 'deliveries', 'requests', 'tables', 'clock'] as const;
export type PageName = (typeof PAGES)[number];

/** Each page's element (main.ts registers them). */
const PAGE_TAGS = {
  keys: literal`hub-console-keys`,
  points: literal`hub-console-points`,
  webhooks: literal`hub-console-webhooks`,
  test: literal`hub-console-test`,
  deliveries: literal`hub-console-deliveries`,
  requests: literal`hub-console-requests`,
  tables: literal`hub-console-tables`,
  clock: literal`hub-console-clock`,
};

const STORE = 'hub-console-locale';

function pageOf(hash: string): PageName {
  const name = hash.replace(/^#/, '');
  return (PAGES as readonly string[]).includes(name) ? (name as PageName) : 'keys';
}

function initialLocale(): Locale {
  const stored = localStorage.getItem(STORE);
  if (stored === 'en' || stored === 'zh-CN') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export class HubConsole extends LitElement {
  static override styles = [
    shared,
    css`
      :host {
        min-height: 100vh;
        background: var(--_bg);
        display: grid;
        grid-template-columns: 13rem 1fr;
        grid-template-rows: auto 1fr;
      }
      header {
        grid-column: 1 / -1;
        display: flex;
        justify-content: space-between;
        align-items: center;
        padding: 10px 16px;
        border-bottom: 1px solid var(--_line);
        background: var(--_panel);
      }
      .brand {
        font-weight: 700;
        margin: 0;
      }
      nav ul {
        list-style: none;
        margin: 0;
        padding: 12px 8px;
        display: grid;
        gap: 2px;
      }
      nav a {
        display: block;
        padding: 6px 10px;
        border-radius: 6px;
        color: var(--_fg);
        text-decoration: none;
      }
      nav a[aria-current='page'] {
        background: var(--_panel);
        border-inline-start: 3px solid var(--_accent);
        font-weight: 600;
      }
      main {
        padding: 16px 24px;
        min-width: 0;
      }
      @media (max-width: 700px) {
        :host {
          grid-template-columns: 1fr;
        }
        nav ul {
          display: flex;
          flex-wrap: wrap;
        }
      }
    `,
  ];
  static override properties = { ...states('page', 'locale') };

  private page: PageName = pageOf(location.hash);
  private locale: Locale = initialLocale();
  private readonly onHash = () => {
    this.page = pageOf(location.hash);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('main h1')?.focus());
  };

  private get t(): Strings {
    return STRINGS[this.locale];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHash);
  }

  override disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.onHash);
    super.disconnectedCallback();
  }

  protected override updated(): void {
    document.documentElement.lang = this.locale;
    document.title = `${this.t.pages[this.page]} · ${this.t.title}`;
  }

  private toggleLocale() {
    this.locale = this.locale === 'en' ? 'zh-CN' : 'en';
    localStorage.setItem(STORE, this.locale);
  }

  override render() {
    const t = this.t;
    return html`
      <header>
        <p class="brand">hub-embed · ${t.title}</p>
        <button lang=${this.locale === 'en' ? 'zh-CN' : 'en'} @click=${this.toggleLocale}>
          ${t.language}
        </button>
      </header>
      <nav aria-label=${t.nav}>
        <ul>
          ${PAGES.map(
            (page) =>
              html`<li>
                <a href="#${page}" aria-current=${page === this.page ? 'page' : 'false'}>${t.pages[page]}</a>
              </li>`,
          )}
        </ul>
      </nav>
      <main>
        <h1 tabindex="-1">${t.pages[this.page]}</h1>
        ${html`<${PAGE_TAGS[this.page]} .locale=${this.locale}></${PAGE_TAGS[this.page]}>`}
      </main>
    `;
  }
}

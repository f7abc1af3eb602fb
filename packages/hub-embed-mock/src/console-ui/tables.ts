/** Tables: the catalogue page by page, publish or unpublish each, add one. */
import { html } from 'lit';
import type { Page, SeedTable } from '../types.js';
import { api, query } from './api.js';
import { ConsolePage, dataTable, field, rowAction, states } from './page.js';
import { yuanToCents } from './strings.js';

const PAGE_SIZE = 20;

export class ConsoleTables extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('tables') };

  private tables: Page<SeedTable> = { list: [], total: 0, page: 1, page_size: PAGE_SIZE };

  protected override async load() {
    this.tables = await api('/console/tables' + query({ page: this.tables.page, page_size: PAGE_SIZE }));
  }

  private add(event: Event) {
    event.preventDefault();
    void this.act(() => {
      const price = yuanToCents(field(event, 'price') || '0');
      if (price === undefined) throw new Error(this.t.badYuan);
      const projectId = field(event, 'project_id').trim();
      return api('/console/tables', {
        ...(projectId ? { project_id: Number(projectId) } : {}),
        short_code: field(event, 'short_code'),
        name: field(event, 'name'),
        industry: field(event, 'industry'),
        icon: 'construction',
        tags: field(event, 'tags')
          .split(/[,，]/)
          .map((tag) => tag.trim())
          .filter(Boolean),
        type: field(event, 'type'),
        published: true,
        price_cents: price,
      });
    });
  }

  override render() {
    const t = this.t;
    return html`
      <h2>${t.addTable}</h2>
      <form @submit=${this.add} id="add-table">
        <label>${t.projectId}<input name="project_id" inputmode="numeric" placeholder=${t.auto} autocomplete="off" /></label>
        <label>${t.shortCode}<input name="short_code" required autocomplete="off" /></label>
        <label>${t.name}<input name="name" required autocomplete="off" /></label>
        <label>${t.industry}<input name="industry" required autocomplete="off" /></label>
        <label>${t.tags}<input name="tags" autocomplete="off" /></label>
        <label
          >${t.type}<select name="type">
            <option>A</option>
            <option>B</option>
          </select></label
        >
        <label>${t.price}<input name="price" inputmode="decimal" value="0" autocomplete="off" /></label>
        <button class="primary">${t.addTable}</button>
      </form>
      ${this.renderStatus()}
      ${dataTable(
        'tables',
        t.pages.tables,
        [t.shortCode, t.name, t.tags, t.price, t.published, t.actions],
        this.tables.list.map(
          (table) =>
            html`<tr data-short-code=${table.short_code}>
              <td><code>${table.short_code}</code></td>
              <td>${table.name}</td>
              <td>${table.tags.join(', ')}</td>
              <td>${t.amountText(table.price_cents)}</td>
              <td>${table.published ? t.yes : t.no}</td>
              <td>
                ${rowAction(table.published ? t.unpublish : t.publish, table.short_code, () =>
                  this.act(() =>
                    api(`/console/tables/${table.published ? 'unpublish' : 'publish'}`, {
                      short_code: table.short_code,
                    }),
                  ),
                )}
              </td>
            </tr>`,
        ),
      )}
      ${this.renderPager(this.tables, (page) => {
        this.tables = { ...this.tables, page };
        void this.run(() => this.load());
      })}
    `;
  }
}

/** Requests: the API request log, newest first, filterable by path, status and user. */
import { html } from 'lit';
import type { RequestLogEntry } from '../types.js';
import { api, query } from './api.js';
import { ConsolePage, dataTable, field, states } from './page.js';

export class ConsoleRequests extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('list') };

  private list: RequestLogEntry[] = [];
  private filters: Record<string, string> = {};

  protected override async load() {
    this.list = (await api<{ list: RequestLogEntry[] }>('/console/requests' + query(this.filters))).list
      .slice()
      .reverse();
  }

  private filter(event: Event) {
    event.preventDefault();
    this.filters = { path: field(event, 'path'), status: field(event, 'status'), user: field(event, 'user') };
    void this.run(() => this.load());
  }

  override render() {
    const t = this.t;
    return html`
      <form @submit=${this.filter} id="filter">
        <label>${t.path}<input name="path" autocomplete="off" /></label>
        <label>${t.status}<input name="status" inputmode="numeric" size="5" autocomplete="off" /></label>
        <label>${t.user}<input name="user" autocomplete="off" /></label>
        <button class="primary">${t.filter}</button>
      </form>
      ${this.renderStatus()}
      ${dataTable(
        'requests',
        t.pages.requests,
        [t.time, t.method, 'Path', t.status, t.auth, t.user],
        this.list.map(
          (entry) =>
            html`<tr>
              <td>${new Date(entry.time).toISOString()}</td>
              <td>${entry.method}</td>
              <td><code>${entry.path}</code></td>
              <td>${entry.status}</td>
              <td>${entry.auth}</td>
              <td>${entry.clientUserId ?? ''}</td>
            </tr>`,
        ),
      )}
    `;
  }
}

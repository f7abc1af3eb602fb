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
          (e) =>
            html`<tr>
              <td>${new Date(e.time).toISOString()}</td>
              <td>${e.method}</td>
              <td><code>${e.path}</code></td>
              <td>${e.status}</td>
              <td>${e.auth}</td>
              <td>${e.clientUserId ?? ''}</td>
            </tr>`,
        ),
      )}
    `;
  }
}

/** Deliveries: every outbound call with its request and answer, newest first; resend one. */
import { html, nothing } from 'lit';
import type { WebhookDelivery } from '../types.js';
import { api } from './api.js';
import { ConsolePage, dataTable, rowAction, states } from './page.js';
import type { Strings } from './strings.js';

/** The request as sent and the answer as received, for the deliveries and the test pages. */
export function renderExchange(t: Strings, d: WebhookDelivery) {
  const headers = Object.entries(d.headers ?? {}).map(([k, v]) => `${k}: ${v}`);
  const request = [`POST ${d.url}`, ...headers, '', JSON.stringify(d.body, null, 2)].join('\n');
  const head =
    d.status !== undefined ? `HTTP ${d.status}` : `${t.noAnswer}: ${d.outcome}${d.error ? ` (${d.error})` : ''}`;
  const answer = `${head} · ${d.durationMs} ms\n\n${d.responseBody ?? ''}`;
  // Figures, not headings: the exchange sits under an h2 on the test page and inside a table here.
  // The pre blocks scroll, so they take focus (keyboard users can scroll them).
  return html`<figure>
      <figcaption>${t.request}</figcaption>
      <pre class="request" tabindex="0" aria-label=${t.request}>${request}</pre>
    </figure>
    <figure>
      <figcaption>${t.answer}</figcaption>
      <pre class="answer" tabindex="0" aria-label=${t.answer}>${answer}</pre>
    </figure>`;
}

export class ConsoleDeliveries extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('list') };

  private list: WebhookDelivery[] = [];

  protected override async load() {
    this.list = (await api<{ list: WebhookDelivery[] }>('/console/deliveries')).list.slice().reverse();
  }

  override render() {
    const t = this.t;
    return html`
      <button @click=${() => this.run(() => this.load())}>${t.refresh}</button>
      ${this.renderStatus()}
      ${dataTable(
        'deliveries',
        t.pages.deliveries,
        ['Id', t.time, t.event, 'URL', t.outcome, t.duration, t.actions],
        this.list.length === 0
          ? html`<tr>
              <td colspan="7">${t.none}</td>
            </tr>`
          : this.list.map(
              (d) =>
                html`<tr data-delivery-id=${d.id}>
                  <td>${d.id}${d.resendOf !== undefined ? html` (↻ ${d.resendOf})` : nothing}</td>
                  <td>${new Date(d.time).toISOString()}</td>
                  <td>${d.event}</td>
                  <td><code>${d.url}</code></td>
                  <td class=${d.outcome === 'delivered' ? 'ok' : 'error'}>
                    ${d.outcome}${d.status !== undefined ? ` ${d.status}` : ''}${d.ok !== undefined ? ` ok=${String(d.ok)}` : ''}
                  </td>
                  <td>${d.durationMs}</td>
                  <td>
                    <details>
                      <summary>${t.details}</summary>
                      ${renderExchange(t, d)}
                    </details>
                    ${rowAction(t.resend, d.id, () => this.act(() => api('/console/deliveries/resend', { id: d.id })))}
                  </td>
                </tr>`,
            ),
      )}
    `;
  }
}

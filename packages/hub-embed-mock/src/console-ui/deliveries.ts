/** Deliveries: every outbound call with its request and answer, newest first; resend one. */
import { html, nothing } from 'lit';
import type { WebhookDelivery } from '../types.js';
import { api } from './api.js';
import { ConsolePage, dataTable, rowAction, states } from './page.js';
import type { Strings } from './strings.js';

/** The request as sent and the answer as received, for the deliveries and the test pages. */
export function renderExchange(t: Strings, delivery: WebhookDelivery) {
  const headers = Object.entries(delivery.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  const request = [`POST ${delivery.url}`, ...headers, '', JSON.stringify(delivery.body, null, 2)].join('\n');
  const head =
    delivery.status !== undefined
      ? `HTTP ${delivery.status}`
      : `${t.noAnswer}: ${delivery.outcome}${delivery.error ? ` (${delivery.error})` : ''}`;
  const answer = `${head} · ${delivery.durationMs} ms\n\n${delivery.responseBody ?? ''}`;
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
              (delivery) =>
                html`<tr data-delivery-id=${delivery.id}>
                  <td>${delivery.id}${delivery.resendOf !== undefined ? html` (↻ ${delivery.resendOf})` : nothing}</td>
                  <td>${new Date(delivery.time).toISOString()}</td>
                  <td>${delivery.event}</td>
                  <td><code>${delivery.url}</code></td>
                  <td class=${delivery.outcome === 'delivered' ? 'ok' : 'error'}>
                    ${delivery.outcome}${delivery.status !== undefined ? ` ${delivery.status}` : ''}${delivery.ok !== undefined ? ` ok=${String(delivery.ok)}` : ''}
                  </td>
                  <td>${delivery.durationMs}</td>
                  <td>
                    <details>
                      <summary>${t.details}</summary>
                      ${renderExchange(t, delivery)}
                    </details>
                    ${rowAction(t.resend, delivery.id, () => this.act(() => api('/console/deliveries/resend', { id: delivery.id })))}
                  </td>
                </tr>`,
            ),
      )}
    `;
  }
}

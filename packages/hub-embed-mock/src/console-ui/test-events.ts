/**
 * The interface test simulator: choose any event, edit the pre-filled fields, send it to the configured
 * URLs through the real dispatch, and see the exact request, the answer and, for a deduct, the decision.
 */
import { html, nothing } from 'lit';
import type { TriggerResult, WebhookBody } from '../types.js';
import { ALL_EVENTS, type MockEventName } from '../webhooks.js';
import { api, query } from './api.js';
import { renderExchange } from './deliveries.js';
import { ConsolePage, field, states } from './page.js';

type Preview = { body: Omit<WebhookBody, 'timestamp'>; urls: string[] };

export class ConsoleTest extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('event', 'preview', 'result') };

  private event = ALL_EVENTS[0]!;
  private preview: Preview | null = null;
  private result: TriggerResult | null = null;

  protected override async load() {
    this.preview = await api<Preview>('/console/trigger/preview' + query({ event: this.event }));
  }

  private choose(event: Event) {
    this.event = (event.target as HTMLSelectElement).value as MockEventName;
    this.result = null;
    void this.run(() => this.load());
  }

  private send(event: Event) {
    event.preventDefault();
    const billing = this.event.startsWith('billing_');
    const body: Record<string, unknown> = {
      event: this.event,
      client_user_id: field(event, 'user') || null,
      short_code: field(event, 'short_code'),
    };
    if (billing) Object.assign(body, { amount: field(event, 'amount'), reason: field(event, 'reason') });
    else
      Object.assign(body, {
        title: field(event, 'title'),
        content: field(event, 'content'),
        link_url: field(event, 'link'),
      });
    void this.run(
      async () => (this.result = await api<TriggerResult>('/console/trigger', body)),
      (result) => this.t.sentTo(result.deliveries.length),
    );
  }

  private renderFields() {
    const t = this.t;
    const body = this.preview?.body;
    if (!body) return nothing;
    // Keyed by event: switching events puts the new pre-filled values in the inputs.
    const fields = body.billing
      ? html`<label>${t.amount} (¥)<input name="amount" .value=${body.billing.amount} autocomplete="off" /></label>
          <label>${t.reason}<input name="reason" .value=${body.billing.reason} autocomplete="off" /></label>`
      : html`<label>${t.titleField}<input name="title" .value=${body.notification?.title ?? ''} autocomplete="off" /></label>
          <label>${t.content}<input name="content" .value=${body.notification?.content ?? ''} autocomplete="off" /></label>
          <label>${t.link}<input name="link" .value=${body.notification?.link_url ?? ''} autocomplete="off" /></label>`;
    return html`<label>${t.user}<input name="user" .value=${body.target.client_user_id ?? ''} autocomplete="off" /></label>
      <label>${t.shortCode}<input name="short_code" .value=${body.short_code} autocomplete="off" /></label>
      ${fields}`;
  }

  private renderResult() {
    const t = this.t;
    const result = this.result;
    if (!result) return nothing;
    const decision = result.decision;
    return html`<section id="result" aria-labelledby="result-title">
      <h2 id="result-title">${t.answer}</h2>
      ${
        decision
          ? html`<p id="decision" class=${decision.charged ? 'ok' : 'error'}>
            ${t.decision}: <strong>${decision.charged ? t.charged : t.failed}</strong> · ${t.logRecord}
            #${decision.record.id} (${decision.record.record_type}, ${decision.record.reason})
          </p>`
          : nothing
      }
      ${result.deliveries.map((delivery) => html`<div class="panel" data-delivery-id=${delivery.id}>${renderExchange(t, delivery)}</div>`)}
    </section>`;
  }

  override render() {
    const t = this.t;
    return html`
      <form @submit=${this.send} id="test">
        <label
          >${t.event}
          <select name="event" @change=${this.choose}>
            ${ALL_EVENTS.map((event) => html`<option value=${event} ?selected=${event === this.event}>${event}</option>`)}
          </select>
        </label>
        ${this.renderFields()}
        <button class="primary">${t.sendEvent}</button>
      </form>
      <p>URL: ${this.preview?.urls.map((url) => html`<code>${url}</code> `) ?? nothing}</p>
      ${this.renderStatus()} ${this.renderResult()}
    `;
  }
}

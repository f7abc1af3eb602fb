/** Webhooks: the notification and billing URLs (several configurations, called in order) and the outbound IPs. */
import { html } from 'lit';
import type { WebhookConfig } from '../types.js';
import { api } from './api.js';
import { ConsolePage, states } from './page.js';

export class ConsoleWebhooks extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('configs', 'ips') };

  private configs: WebhookConfig[] = [];
  private ips: string[] = [];

  protected override async load() {
    const answer = await api<{ configs: WebhookConfig[]; outbound_ips: string[] }>('/console/webhooks');
    this.configs = answer.configs.length > 0 ? answer.configs : [{}];
    this.ips = answer.outbound_ips;
  }

  private edit(index: number, key: 'notification_url' | 'billing_url', value: string) {
    this.configs = this.configs.map((config, position) =>
      position === index ? { ...config, [key]: value || undefined } : config,
    );
  }

  private urlField(index: number, key: 'notification_url' | 'billing_url', label: string) {
    // A URL field takes the room there is (styles.ts .url): a full callback URL is read, not guessed.
    return html`<label class="url"
      >${label}<input
        type="url"
        name=${key}
        .value=${this.configs[index]![key] ?? ''}
        @input=${(event: Event) => this.edit(index, key, (event.target as HTMLInputElement).value)}
    /></label>`;
  }

  private save(event: Event) {
    event.preventDefault();
    const configs = this.configs.filter((config) => config.notification_url || config.billing_url);
    void this.act(() => api('/console/webhooks', { configs }, 'PUT'));
  }

  override render() {
    const t = this.t;
    return html`
      <h2>${t.outboundIps}</h2>
      <ul id="outbound-ips">
        ${this.ips.map((ip) => html`<li><code>${ip}</code></li>`)}
      </ul>
      <h2>${t.configs}</h2>
      <form @submit=${this.save} id="webhooks">
        ${this.configs.map(
          (_, position) =>
            html`<fieldset class="row">
              <legend>#${position + 1}</legend>
              ${this.urlField(position, 'notification_url', t.notificationUrl)} ${this.urlField(position, 'billing_url', t.billingUrl)}
              <button
                type="button"
                aria-label="${t.remove} #${position + 1}"
                @click=${() => (this.configs = this.configs.filter((_, other) => other !== position))}
              >
                ${t.remove}
              </button>
            </fieldset>`,
        )}
        <div class="row">
          <button type="button" @click=${() => (this.configs = [...this.configs, {}])}>${t.addConfig}</button>
          <button class="primary">${t.save}</button>
        </div>
      </form>
      ${this.renderStatus()}
    `;
  }
}

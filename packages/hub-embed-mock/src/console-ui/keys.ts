/** API keys: create (the plaintext once, with copy), list masked with id, created time and state, disable, expire. */
import { html, nothing } from 'lit';
import type { ApiKeyView } from '../types.js';
import { api } from './api.js';
import { ConsolePage, dataTable, rowAction, states } from './page.js';

export class ConsoleKeys extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('keys', 'created') };

  private keys: ApiKeyView[] = [];
  private created: (ApiKeyView & { key: string }) | null = null;

  protected override async load() {
    this.keys = (await api<{ list: ApiKeyView[] }>('/console/keys')).list;
  }

  private create() {
    void this.act(async () => {
      this.created = await api<ApiKeyView & { key: string }>('/console/keys', {});
    });
  }

  private copy() {
    const key = this.created?.key;
    if (key)
      void this.run(
        () => navigator.clipboard.writeText(key),
        () => this.t.copied,
      );
  }

  /**
   * Ids count the keys of every account (k1, k2, … in creation order) and this page lists the developer's
   * only, so another account's key leaves a gap (the seed's member key is k4). The page names the gap.
   */
  private missingIds(): string[] {
    const numbers = this.keys.map((key) => Number(key.id.slice(1))).filter(Number.isInteger);
    const listed = new Set(numbers);
    const missing: string[] = [];
    for (let number = 1; number < Math.max(0, ...numbers); number++)
      if (!listed.has(number)) missing.push(`k${number}`);
    return missing;
  }

  override render() {
    const t = this.t;
    const missing = this.missingIds();
    return html`
      <button class="primary" @click=${this.create}>${t.createKey}</button>
      ${
        this.created
          ? html`<div class="panel">
            <label
              >${t.newKey}
              <output class="key" id="new-key" data-key-id=${this.created.id}>${this.created.key}</output></label
            >
            <button @click=${this.copy}>${t.copy}</button>
          </div>`
          : nothing
      }
      ${this.renderStatus()}
      ${dataTable(
        'keys',
        t.pages.keys,
        [t.keyId, t.mask, t.created, t.state, t.actions],
        this.keys.map(
          (key) =>
            html`<tr data-key-id=${key.id}>
              <td>${key.id}</td>
              <td><code>${key.mask}</code></td>
              <td>${key.created_at}</td>
              <td>${t.states[key.state] ?? key.state}</td>
              <td>
                ${rowAction(t.disable, key.id, () => this.act(() => api('/console/keys/disable', { id: key.id })), key.state !== 'active')}
                ${rowAction(t.expire, key.id, () => this.act(() => api('/console/keys/expire', { id: key.id })), key.state !== 'active')}
              </td>
            </tr>`,
        ),
      )}
      ${missing.length > 0 ? html`<p class="note" id="key-id-gap">${t.keyIdGap(missing)}</p>` : nothing}
    `;
  }
}

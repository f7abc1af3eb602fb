/** Clock and reset: advance the simulator's time (tokens expire), go back to real time, reset to the seed. */
import { html } from 'lit';
import { api } from './api.js';
import { ConsolePage, states } from './page.js';

const STEPS: [label: string, ms: number][] = [
  ['1 min', 60_000],
  ['10 min', 600_000],
  ['2 h', 7_200_000],
  ['1 d', 86_400_000],
];

export class ConsoleClock extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('now') };

  private now = '';

  protected override async load() {
    this.now = (await api<{ now: string }>('/console/clock')).now;
  }

  override render() {
    const t = this.t;
    return html`
      <p>${t.now}: <time class="big" id="now">${this.now}</time></p>
      <div class="row">
        ${STEPS.map(
          ([label, ms]) =>
            html`<button @click=${() => this.act(() => api('/console/clock', { advance_ms: ms }))}>
              ${t.advance(label)}
            </button>`,
        )}
        <button @click=${() => this.act(() => api('/console/clock', { resume: true }))}>${t.resume}</button>
      </div>
      <h2>${t.reset}</h2>
      <p>${t.resetHelp}</p>
      <button class="primary" id="reset" @click=${() => this.act(() => api('/console/reset', {}))}>${t.reset}</button>
      ${this.renderStatus()}
    `;
  }
}

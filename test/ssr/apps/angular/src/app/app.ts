// #region component
// app/app.ts
import {
  CUSTOM_ELEMENTS_SCHEMA,
  Component,
  REQUEST_CONTEXT,
  TransferState,
  inject,
  makeStateKey,
  signal,
} from '@angular/core';
import type { HubEventMap } from 'hub-embed';

/** What server.ts passes to each render, and the page keeps for the browser. */
export interface HubConfig {
  baseUrl: string;
  formUrl: string;
}
const HUB_CONFIG = makeStateKey<HubConfig>('hub-config');

@Component({
  selector: 'app-root',
  // Angular leaves the tags to the browser. Attributes, not properties, so the server's HTML carries them.
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <p role="status">{{ status() }}</p>
    <hub-embed
      token-endpoint="/api/hub-token"
      [attr.base-url]="config.baseUrl"
      [attr.form-url]="config.formUrl"
      (hub-ready)="ready($event)"
    ></hub-embed>
  `,
})
export class App {
  private readonly state = inject(TransferState);
  protected readonly config: HubConfig =
    (inject(REQUEST_CONTEXT, { optional: true }) as HubConfig | null) ??
    this.state.get(HUB_CONFIG, { baseUrl: '', formUrl: '' });
  protected readonly status = signal('');

  constructor() {
    this.state.set(HUB_CONFIG, this.config);
  }

  protected ready(event: Event) {
    const { detail } = event as HubEventMap['hub-ready'];
    this.status.set(`${detail.matching} matching tables ready.`);
  }
}
// #endregion component

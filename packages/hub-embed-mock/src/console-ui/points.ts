/** Points: the pool, top-up as simulated payment (1 yuan = 100 points), transfers and their records, each user's log. */
import { html, nothing } from 'lit';
import type { ConsoleLogRecord, Page, TransferRecord, WebhookDelivery } from '../types.js';
import { api, query } from './api.js';
import { ConsolePage, dataTable, field, rowAction, states } from './page.js';
import { yuanToCents } from './strings.js';

interface PointsView {
  pool_cents: number;
  users: { client_user_id: string; user_id: number; balance_cents: number }[];
}

const PAGE_SIZE = 10;

export class ConsolePoints extends ConsolePage {
  static override properties = { ...ConsolePage.properties, ...states('points', 'transfers', 'logUser', 'logs') };

  private points: PointsView = { pool_cents: 0, users: [] };
  private transfers: Page<TransferRecord> = { list: [], total: 0, page: 1, page_size: PAGE_SIZE };
  private logUser = '';
  private logs: Page<ConsoleLogRecord> | null = null;

  protected override async load() {
    this.points = await api<PointsView>('/console/points');
    this.transfers = await api('/console/transfers' + query({ page: this.transfers.page, page_size: PAGE_SIZE }));
    if (this.logUser) await this.loadLogs(this.logs?.page ?? 1);
  }

  private async loadLogs(page: number) {
    this.logs = await api('/console/users/logs' + query({ client_user_id: this.logUser, page, page_size: PAGE_SIZE }));
  }

  private cents(event: Event): number {
    const cents = yuanToCents(field(event, 'yuan'));
    if (cents === undefined || cents <= 0) throw new Error(this.t.badYuan);
    return cents;
  }

  private topUp(event: Event) {
    event.preventDefault();
    void this.act(() => {
      const cents = this.cents(event);
      return api('/console/pool/top-up', { yuan: cents / 100 });
    });
  }

  private transfer(event: Event) {
    event.preventDefault();
    void this.act(() => {
      const cents = this.cents(event);
      return api('/console/transfers', { client_user_id: field(event, 'user'), amount_cents: cents });
    });
  }

  /** Refunds one charge: the record goes back to the user and billing_refund goes to the billing URLs. */
  private refund(record: ConsoleLogRecord) {
    const user = this.logUser;
    return this.act(
      () => api<{ deliveries: WebhookDelivery[] }>('/console/refunds', { client_user_id: user, log_id: record.id }),
      (answer) => this.t.refundDone(record.id, answer?.deliveries.length ?? 0),
    );
  }

  private renderLogs() {
    const t = this.t;
    const logs = this.logs;
    if (!logs) return nothing;
    return html`
      ${dataTable(
        'user-log',
        t.logOf(this.logUser),
        ['Id', t.time, t.type, t.change, t.balance, t.reason, t.actions],
        logs.list.map(
          (record) =>
            html`<tr>
              <td>${record.id}</td>
              <td>${record.created_at}</td>
              <td>${record.record_type}</td>
              <td>${record.change_cents > 0 ? '+' : ''}${t.amountText(record.change_cents)}</td>
              <td>${t.amountText(record.balance_after)}</td>
              <td>${record.reason}</td>
              <td>
                ${
                  record.record_type === 'deduct'
                    ? rowAction(
                        record.refunded ? t.refundedAlready : t.refund,
                        record.id,
                        () => this.refund(record),
                        record.refunded,
                      )
                    : nothing
                }
              </td>
            </tr>`,
        ),
      )}
      ${this.renderPager(logs, (page) => void this.run(() => this.loadLogs(page)))}`;
  }

  override render() {
    const t = this.t;
    return html`
      <p>${t.pool}: <span class="big" id="pool">${t.amountText(this.points.pool_cents)}</span></p>
      <h2>${t.topUp}</h2>
      <form @submit=${this.topUp} id="top-up">
        <label>${t.yuan}<input name="yuan" inputmode="decimal" required autocomplete="off" /></label>
        <button class="primary">${t.pay}</button>
      </form>
      <h2>${t.transfer}</h2>
      <form @submit=${this.transfer} id="transfer">
        <label>${t.user}<input name="user" required autocomplete="off" /></label>
        <label>${t.yuan}<input name="yuan" inputmode="decimal" required autocomplete="off" /></label>
        <button class="primary">${t.send}</button>
      </form>
      ${this.renderStatus()}
      ${dataTable(
        'users',
        t.users,
        ['client_user_id', 'user_id', t.balance, t.actions],
        this.points.users.map(
          (user) =>
            html`<tr data-user=${user.client_user_id}>
              <td>${user.client_user_id}</td>
              <td>${user.user_id}</td>
              <td>${t.amountText(user.balance_cents)}</td>
              <td>
                ${rowAction(t.showLog, user.client_user_id, () =>
                  this.run(() => {
                    this.logUser = user.client_user_id;
                    return this.loadLogs(1);
                  }),
                )}
              </td>
            </tr>`,
        ),
      )}
      ${this.renderLogs()}
      ${dataTable(
        'transfers',
        t.transfers,
        [t.time, t.user, t.amount, t.reason],
        this.transfers.list.map(
          (transfer) =>
            html`<tr>
              <td>${transfer.created_at}</td>
              <td>${transfer.client_user_id}</td>
              <td>${t.amountText(transfer.amount_cents)}</td>
              <td>${transfer.reason}${transfer.external_order_id ? ` (${transfer.external_order_id})` : ''}</td>
            </tr>`,
        ),
      )}
      ${this.renderPager(this.transfers, (page) => {
        this.transfers = { ...this.transfers, page };
        void this.run(() => this.load());
      })}
    `;
  }
}

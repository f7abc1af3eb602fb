// The cards of <hub-table-grid>: one node per table, kept from one list to the next and updated in place.
import { render } from 'lit';
import type { PublishedTable } from '../../core/types.js';
import { cardTemplate, type CardNode } from '../hub-table-card/card-template.js';

/** A card of the grid, with what its markup was last rendered with besides its table. */
export type Card = CardNode & { busy?: boolean; broken?: string };

/**
 * Each table's card by short code, made once: a new list (a filter change, a refresh) moves the cards it
 * shares with the last one and updates them in place, as a plain page would, instead of making them
 * anew. Only the current list's cards are kept.
 */
export class CardPool {
  #cards = new Map<string, Card>();
  /** The card of each place of the list, in its order (a short code listed twice has two). */
  #places: Card[] = [];

  /**
   * Takes `tables` as the list: a card for each place, the last list's where it had the table. Returns
   * whether each place holds the very card it held (the same tables, in the same order: a list fetched again).
   */
  list(tables: readonly PublishedTable[]): boolean {
    const before = this.#places;
    const last = this.#cards;
    this.#cards = new Map();
    this.#places = tables.map((table) => {
      let card = last.get(table.short_code);
      last.delete(table.short_code);
      if (!card) {
        card = document.createElement('div');
        card.setAttribute('role', 'listitem');
      }
      this.#cards.set(table.short_code, card);
      return card;
    });
    return before.length == this.#places.length && this.#places.every((card, index) => card == before[index]);
  }

  /** The card at place `index`, updated for `table`, busy while its form is `opening`. */
  card(table: PublishedTable, index: number, opening: string | undefined): Card {
    const card = this.#places[index]!;
    const busy = table.short_code === opening;
    if (card.table !== table || card.busy !== busy) {
      card.table = table;
      card.busy = busy;
      renderCard(card);
    }
    return card;
  }
}

/** Draws `card` again for what it shows: its table, whether it is busy, an icon that failed to load. */
export function renderCard(card: Card): void {
  render(cardTemplate(card.table!, card.busy!, card.broken), card);
}

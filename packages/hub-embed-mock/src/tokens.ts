/**
 * Access tokens, kept by value and by expiry. A min-heap on `expiresAt` lets each exchange drop
 * the expired tokens by looking only at them (plus one live one), so the cost of an exchange does
 * not grow with the number of live tokens. A heap rather than insertion order, because the clock
 * can be set back and TTLs differ between hubs.
 */

export interface TokenRecord {
  token: string;
  developerId: number;
  clientUserId: string;
  expiresAt: number;
}

export class TokenStore {
  readonly byToken = new Map<string, TokenRecord>();
  readonly byExpiry: TokenRecord[] = [];

  get size(): number {
    return this.byToken.size;
  }

  add(record: TokenRecord): void {
    this.byToken.set(record.token, record);
    const heap = this.byExpiry;
    heap.push(record);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (heap[parent]!.expiresAt <= heap[index]!.expiresAt) break;
      [heap[parent], heap[index]] = [heap[index]!, heap[parent]!];
      index = parent;
    }
  }

  get(token: string): TokenRecord | undefined {
    return this.byToken.get(token);
  }

  /** Drops every token expired at `now`; returns how many records it looked at (expired ones + 1). */
  prune(now: number): number {
    let examined = 0;
    const heap = this.byExpiry;
    while (heap.length > 0) {
      examined++;
      if (heap[0]!.expiresAt > now) break;
      this.byToken.delete(this.popEarliest().token);
    }
    return examined;
  }

  popEarliest(): TokenRecord {
    const heap = this.byExpiry;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && heap[left]!.expiresAt < heap[smallest]!.expiresAt) smallest = left;
        if (right < heap.length && heap[right]!.expiresAt < heap[smallest]!.expiresAt) smallest = right;
        if (smallest === index) break;
        [heap[smallest], heap[index]] = [heap[index]!, heap[smallest]!];
        index = smallest;
      }
    }
    return top;
  }
}

// The rules <HubEmbedView>'s hook applies (src/react-native/view-rules.ts), each driven alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  RELOADS_PER_MINUTE,
  afterFormOpened,
  allowedOrigins,
  refreshTold,
  reloadsWithOneMore,
  sameTags,
  type WidgetError,
} from '../../src/react-native/view-rules.js';

describe('<HubEmbedView> rules', () => {
  it('reloads itself at most RELOADS_PER_MINUTE times in any minute', () => {
    let recent: number[] = [];
    for (let i = 1; i <= RELOADS_PER_MINUTE; i++) recent = reloadsWithOneMore(recent, 1000 * i)!;
    assert.equal(recent.length, RELOADS_PER_MINUTE);
    assert.equal(reloadsWithOneMore(recent, 60_999), undefined);
    // A minute after the first reload, one more is allowed, and the first is forgotten.
    assert.deepEqual(reloadsWithOneMore(recent, 61_000), [...recent.slice(1), 61_000]);
  });

  it('a page’s form.opened holds Android back once per gesture; a host’s never does', () => {
    const opened = afterFormOpened({ pageForm: false, believed: false }, 'page');
    assert.deepEqual(opened, { pageForm: true, believed: true });
    // The page's form closed (form.closed) and it says opened again without a touch: not believed.
    assert.deepEqual(afterFormOpened({ pageForm: false, believed: true }, 'page'), { pageForm: false, believed: true });
    assert.deepEqual(afterFormOpened(opened, 'host'), { pageForm: false, believed: true });
  });

  it('loads inside the widget page’s origin and the app’s others, each once, nothing undefined', () => {
    assert.deepEqual(allowedOrigins('https://a.example', ['https://b.example', 'https://a.example']), [
      'https://a.example',
      'https://b.example',
    ]);
    assert.deepEqual(allowedOrigins(undefined), []);
  });

  it('tags are the same only in the same order', () => {
    assert.equal(sameTags(['a', 'b'], ['a', 'b']), true);
    assert.equal(sameTags(['a', 'b'], ['b', 'a']), false);
    assert.equal(sameTags(undefined, undefined), true);
    assert.equal(sameTags(undefined, []), false);
  });

  it('a refresh fails with the first widget.error told while it runs, and stops listening after', async () => {
    const listeners = new Set<(error: WidgetError) => void>();
    const tell = (error: WidgetError) => listeners.forEach((hear) => hear(error));
    await assert.rejects(
      refreshTold(async () => {
        tell({ kind: 'network', message: 'down' });
        tell({ kind: 'second', message: 'ignored' });
      }, listeners),
      { code: 'E_INTERNAL', message: 'refresh: the widget could not load (network): down' },
    );
    assert.equal(listeners.size, 0);
    assert.equal(await refreshTold(async () => undefined, listeners), undefined);
    assert.equal(listeners.size, 0);
  });
});

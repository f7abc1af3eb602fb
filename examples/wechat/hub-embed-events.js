// The events a hub-embed widget page posted from inside <web-view>, read the way bridge protocol v1
// reads them (docs/webview.md): one `e.detail.data` is every postMessage since the last delivery, and
// each of the widget's holds a batch `{hubEmbed: [json, ...]}`. WeChat delivers them only when the user
// goes back, shares or the page is destroyed, so they are a record of what happened, not a live channel.
// Anything that is not a v1 event of hub-embed (another SDK's message, broken JSON) is skipped, and so is
// an event of a name or shape the protocol does not have (with the reason hub-embed/host gives).

const MAX_CHARS = 4 * 1024 * 1024;

/** Text the page sends: a string, short enough for a log line or a label. */
const text = (value, max = 500) => typeof value === 'string' && value.length <= max;
const isObject = (value) => !!value && typeof value === 'object' && !Array.isArray(value);

/** Each event's params, checked as hub-embed/host checks them (src/host/event-shapes.ts). */
const SHAPES = new Map(
  Object.entries({
    'widget.ready': (p) => text(p.version, 100) && (p.locale === undefined || text(p.locale, 35)),
    'table.selected': (p) => text(p.shortCode, 100) && text(p.name),
    // As many tags, each as long, as a host may send in widget.setTags.
    'tags.changed': (p) => Array.isArray(p.tags) && p.tags.length <= 100 && p.tags.every((tag) => text(tag, 200)),
    'form.opened': (p) => text(p.shortCode, 100) && (p.handledBy === 'host' || p.handledBy === 'page'),
    'form.closed': (p) => text(p.shortCode, 100),
    'widget.error': (p) => text(p.kind, 100) && text(p.message, 2000),
    'form.message': (p) => text(p.shortCode, 100) && 'data' in p,
  }),
);

/**
 * @param {unknown} data  `e.detail.data` of bindmessage.
 * @param {(reason: string) => void} [onRejected]  each hub-embed event skipped for its name or shape, and why.
 * @returns {{method: string, params: any}[]}  only events of the documented shapes (docs/webview.md).
 */
function readHubEvents(data, onRejected = () => {}) {
  const events = [];
  for (const batch of Array.isArray(data) ? data : []) {
    const messages = batch && Array.isArray(batch.hubEmbed) ? batch.hubEmbed : [];
    for (const json of messages) {
      if (typeof json !== 'string' || json.length > MAX_CHARS) continue;
      let message;
      try {
        message = JSON.parse(json);
      } catch {
        continue;
      }
      if (!message || message.ns !== 'hub-embed' || message.v !== 1 || message.kind !== 'evt') continue;
      if (typeof message.method !== 'string') continue;
      // A Map, so that an event called `toString` finds no shape.
      const shape = SHAPES.get(message.method);
      if (!shape) onRejected(`unknown event ${message.method.slice(0, 100)}`);
      else if (!isObject(message.params) || !shape(message.params)) onRejected(`bad params: ${message.method}`);
      else events.push({ method: message.method, params: message.params });
    }
  }
  return events;
}

/**
 * The form URL a navigateTo brought, if it is on the form site: the widget page builds it, but a
 * mini-program page can be opened with any query, so the origin is checked before the web-view loads it.
 * @param {string | undefined} encoded  the `url` query value. @param {string} formSite  e.g. https://forms.example
 */
function formUrlFrom(encoded, formSite) {
  let url;
  try {
    url = decodeURIComponent(encoded || '');
  } catch {
    return undefined;
  }
  const prefix = `${formSite.replace(/\/+$/, '')}/`;
  return url.startsWith(prefix) && !/[\s\\]/.test(url) ? url : undefined;
}

module.exports = { readHubEvents, formUrlFrom };

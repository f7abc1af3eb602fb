// The events a hub-embed widget page posted from inside <web-view>, read the way bridge protocol v1
// reads them (docs/webview.md): one `e.detail.data` is every postMessage since the last delivery, and
// each of the widget's holds a batch `{hubEmbed: [json, ...]}`. WeChat delivers them only when the user
// goes back, shares or the page is destroyed, so they are a record of what happened, not a live channel.
// Anything that is not a v1 event of hub-embed (another SDK's message, broken JSON) is skipped.

const MAX_CHARS = 4 * 1024 * 1024;

/** @param {unknown} data  `e.detail.data` of bindmessage. @returns {{method: string, params: unknown}[]} */
function readHubEvents(data) {
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
      events.push({ method: message.method, params: message.params });
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

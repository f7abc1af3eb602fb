/**
 * The form page's script and style, served as files so the page CSP can forbid inline code.
 * The script reads the outcome from data-* attributes and tells the parent frame, and only the
 * embedding origin, what happened; without JS the forms still work by plain POST.
 */

export const FORM_SCRIPT = `(function () {
  'use strict';
  var root = document.getElementById('hub-form');
  if (!root) return;

  function embeddingOrigin() {
    var ancestors = location.ancestorOrigins;
    if (ancestors && ancestors.length > 0) return ancestors[0];
    if (!document.referrer) return null;
    try {
      var origin = new URL(document.referrer).origin;
      // After a no-JS POST the referrer is this page itself, not the embedder.
      return origin === location.origin ? null : origin;
    } catch (e) {
      return null;
    }
  }

  var target = window.parent !== window ? embeddingOrigin() : null;

  function post(message) {
    if (target && target !== 'null') window.parent.postMessage(message, target);
  }

  function toMessage(type, ok, amountCents, balanceCents, reason) {
    var message = { source: 'hub-form', type: type, shortCode: root.dataset.shortCode, ok: ok };
    if (typeof amountCents === 'number') message.amountCents = amountCents;
    if (typeof balanceCents === 'number') message.balanceCents = balanceCents;
    if (reason) message.reason = reason;
    return message;
  }

  // The page's language, chosen by the server from Accept-Language (form-strings.ts).
  var zh = document.documentElement.lang === 'zh-CN';

  // The page's one way to show an amount (http.ts yuanAndPoints): "¥10,000.00 (1,000,000 points)".
  function yuanAndPoints(cents) {
    var abs = Math.abs(cents);
    var yuan =
      (cents < 0 ? '-' : '') + Math.floor(abs / 100).toLocaleString('en-US') + '.' + String(abs % 100).padStart(2, '0');
    var count = cents.toLocaleString('en-US');
    if (zh) return '\u00a5' + yuan + '\uff08' + count + ' \u79ef\u5206\uff09';
    return '\u00a5' + yuan + ' (' + count + (abs === 1 ? ' point)' : ' points)');
  }

  function num(value) {
    return value === undefined || value === '' ? undefined : Number(value);
  }

  // Keys pressed in this frame never reach the embedding widget: Escape asks it to close the form.
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && !event.defaultPrevented) post({ source: 'hub-form', type: 'close', shortCode: root.dataset.shortCode });
  });

  // The widget sizes its frame to the page: the height of the body, the page's content with its padding
  // (the document's own height is never less than the frame, so it could only grow). Read from the
  // observation itself: a layout forced in the callback can take in a frame resize of the same update
  // and change the body under the observer, which WebKit reports as an error of the page.
  var reported = -1;
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(function (entries) {
      var box = entries[0].borderBoxSize;
      var height = Math.ceil(box && box[0] ? box[0].blockSize : document.body.offsetHeight);
      if (height === reported) return;
      reported = height;
      post({ source: 'hub-form', type: 'height', shortCode: root.dataset.shortCode, height: height });
    }).observe(document.body);
  }

  var d = root.dataset;
  post(toMessage(d.event || 'load', d.ok === 'true', num(d.amountCents), num(d.balanceCents), d.reason));

  var outcome = document.getElementById('outcome');
  var balance = document.getElementById('balance');
  var forms = root.querySelectorAll('form[data-action]');
  Array.prototype.forEach.call(forms, function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var type = form.getAttribute('data-action');
      var button = form.querySelector('button');
      if (button) button.disabled = true;
      // form.action would be the <input name="action">, so read the attribute.
      fetch(form.getAttribute('action'), {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(new FormData(form)).toString(),
        credentials: 'omit'
      })
        .then(function (res) { return res.json(); })
        .then(function (envelope) {
          var data = envelope && envelope.data;
          if (!data) throw new Error(envelope && envelope.message ? envelope.message : 'unexpected answer');
          if (outcome) outcome.textContent = data.message;
          if (balance && typeof data.balanceCents === 'number') balance.textContent = yuanAndPoints(data.balanceCents);
          post(toMessage(type, data.ok === true, data.amountCents, data.balanceCents, data.reason));
        })
        .catch(function (error) {
          var why = error && error.message ? error.message : zh ? '\u7f51\u7edc\u9519\u8bef' : 'network error';
          if (outcome) outcome.textContent = (zh ? '\u8bf7\u6c42\u5931\u8d25\uff1a' : 'Request failed: ') + why;
          post(toMessage(type, false, undefined, undefined, 'network'));
        })
        .then(function () { if (button) button.disabled = false; });
    });
  });
})();
`;

/*
 * Secondary text is a colour of its own, not the system's GrayText (#808080, 3.94:1 on white, under WCAG's
 * 4.5:1): the widget's muted tones, 6.1:1 on white and at least 5.9:1 on the dark schemes' Canvas.
 */
export const FORM_STYLE = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; --muted: light-dark(#59636e, #9198a1); }
body { margin: 0; padding: 16px; background: Canvas; color: CanvasText; }
main { max-width: 560px; margin: 0 auto; }
header { display: flex; gap: 12px; align-items: center; }
header img { border-radius: 12px; }
h1 { font-size: 1.25rem; margin: 0; }
.meta { color: var(--muted); margin: 4px 0 0; }
.tags { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 0; list-style: none; }
/* A fixed line-height: with 'normal', Latin and CJK text take their own fonts' metrics and sit 3px apart. */
.tags li { border: 1px solid GrayText; border-radius: 999px; padding: 2px 8px; font-size: .85rem; line-height: 1.5; }
form { margin: 16px 0; display: grid; gap: 8px; }
textarea { min-height: 80px; font: inherit; }
button { font: inherit; padding: 8px 14px; border-radius: 8px; border: 1px solid GrayText; cursor: pointer; }
#outcome:not(:empty) { padding: 8px 12px; border-radius: 8px; border: 1px solid GrayText; }
.hint { color: var(--muted); font-size: .9rem; margin: 0; }
/* Readable on both schemes: the page follows prefers-color-scheme (color-scheme: light dark above). */
.error h1 { color: #b91c1c; }
@media (prefers-color-scheme: dark) { .error h1 { color: #ff7b72; } }
`;

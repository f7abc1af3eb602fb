// Listens to the widget's events; the page needs no other script.
const widget = document.querySelector('hub-embed');
const status = document.getElementById('status');

widget.addEventListener('hub-ready', (event) => {
  status.textContent = `${event.detail.matching} matching tables ready.`;
});
widget.addEventListener('hub-form-message', (event) => {
  const message = event.detail.data;
  if (message?.type === 'charge')
    status.textContent = message.ok
      ? 'Paid: see the Points page for the ledger entry.'
      : `The payment was declined (${message.reason ?? 'unknown reason'}).`;
});
widget.addEventListener('hub-error', (event) => {
  status.textContent = `Error (${event.detail.error.kind}): ${event.detail.error.message}`;
});

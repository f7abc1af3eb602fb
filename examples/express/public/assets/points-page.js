// Fills the points page from /api/points, with textContent only.
/** "¥10,000.00": yuan with thousands separators, as the simulator's pages show it. */
const yuan = (cents) =>
  cents === null
    ? '—'
    : `${cents < 0 ? '-' : ''}¥${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function row(cells) {
  const tr = document.createElement('tr');
  for (const text of cells) tr.appendChild(document.createElement('td')).textContent = text;
  return tr;
}

async function load() {
  const response = await fetch('/api/points', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /api/points answered ${response.status}`);
  const points = await response.json();
  document.getElementById('ledger-balance').textContent = yuan(points.ledger.balanceCents);
  document
    .getElementById('ledger-entries')
    .replaceChildren(
      ...points.ledger.entries.map((e) =>
        row([new Date(e.createdAt).toLocaleString(), e.kind, yuan(e.changeCents), yuan(e.balanceAfterCents), e.reason]),
      ),
    );
  document.getElementById('service-balance').textContent = yuan(points.service.balanceCents);
  document
    .getElementById('service-logs')
    .replaceChildren(
      ...points.service.logs.map((l) =>
        row([new Date(l.createdAt).toLocaleString(), l.recordType, yuan(l.changeCents), l.reason]),
      ),
    );
  document.getElementById('inbox').replaceChildren(
    ...points.inbox.map((m) => {
      const li = document.createElement('li');
      // null when the stored link_url is one the server refuses to build a link for: the title, unlinked.
      if (m.link === null) {
        li.append(m.title, `: ${m.content}`);
        li.title = m.linkError;
        return li;
      }
      const link = document.createElement('a');
      link.href = m.link; // built by the server: the form site root, the in-site path, the user's token
      link.textContent = m.title;
      li.append(link, `: ${m.content}`);
      return li;
    }),
  );
  document.body.dataset.loaded = 'true';
}

document.getElementById('recharge').addEventListener('submit', async (event) => {
  event.preventDefault();
  const result = document.getElementById('recharge-result');
  const [whole, fraction = ''] = new FormData(event.target).get('yuan').split('.');
  const amountCents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  const response = await fetch('/api/points/recharge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount_cents: amountCents }),
  });
  result.textContent = response.ok ? 'Recharged.' : (await response.json()).error;
  await load();
});

load().catch((error) => {
  document.getElementById('ledger-balance').textContent = error.message;
});

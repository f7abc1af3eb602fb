/** Project icons generated in code, so the simulator (and every demo using it) works offline. */

export const ICON_NAME = /^[a-z0-9-]{1,40}$/;

const PALETTE = [
  '#2563eb',
  '#16a34a',
  '#dc2626',
  '#9333ea',
  '#ea580c',
  '#0891b2',
  '#ca8a04',
  '#db2777',
  '#4f46e5',
  '#059669',
];

function hash(text: string): number {
  let hashed = 2166136261;
  for (let index = 0; index < text.length; index++) hashed = Math.imul(hashed ^ text.charCodeAt(index), 16777619);
  return hashed >>> 0;
}

/** A 64x64 rounded tile with the name's initials; the name is restricted to [a-z0-9-], so nothing needs escaping. */
export function iconSvg(name: string): string {
  if (!ICON_NAME.test(name))
    throw new Error(`Icon names are 1-40 characters of a-z, 0-9 and "-"; got ${JSON.stringify(name)}.`);
  // The index is always in range; the fallback only tells the type checker so.
  const color = PALETTE[hash(name) % PALETTE.length] ?? '#64748b';
  const initials = name
    .split('-')
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${name}">` +
    `<rect width="64" height="64" rx="14" fill="${color}"/>` +
    `<text x="32" y="41" font-family="system-ui,sans-serif" font-size="24" font-weight="700" text-anchor="middle" fill="#fff">${initials}</text>` +
    `</svg>`
  );
}

/** The URL a seed icon value stands for: names map to the API site, absolute http(s) URLs stay. */
export function iconUrl(icon: string, baseUrl: string): string {
  return ICON_NAME.test(icon) ? `${baseUrl}/static/icons/${icon}.svg` : icon;
}

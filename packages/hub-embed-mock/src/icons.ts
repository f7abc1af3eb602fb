/**
 * Project icons generated in code, so the simulator (and every demo using it) works offline. Each is a
 * PNG, as a project's icon on the real service is an uploaded picture: a browser loads an SVG `<img>` as
 * a document of its own (10 to 35 ms of the page's main thread each, in Chromium), which no real icon
 * costs, so SVG icons would make every measurement of the widget worse than a user's page.
 */
import { palettePng, type Palette } from './png.js';

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

/**
 * Capitals and digits as strokes on a 4 by 6 grid (x right, y down): polylines separated by `;`, each
 * point `x,y`. Drawn with round ends, they read as a rounded sans at icon size.
 */
const GLYPHS: Record<string, string> = {
  A: '0,6 2,0 4,6;0.7,4 3.3,4',
  B: '0,3 3,3 4,4 4,5 3,6 0,6 0,0 3,0 4,1 4,2 3,3',
  C: '4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5',
  D: '0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0',
  E: '4,0 0,0 0,6 4,6;0,3 3,3',
  F: '4,0 0,0 0,6;0,3 3,3',
  G: '4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3 2.5,3',
  H: '0,0 0,6;4,0 4,6;0,3 4,3',
  I: '1,0 3,0;2,0 2,6;1,6 3,6',
  J: '4,0 4,5 3,6 1,6 0,5',
  K: '0,0 0,6;4,0 0,4;1.4,2.9 4,6',
  L: '0,0 0,6 4,6',
  M: '0,6 0,0 2,3.5 4,0 4,6',
  N: '0,6 0,0 4,6 4,0',
  O: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0',
  P: '0,6 0,0 3,0 4,1 4,2 3,3 0,3',
  Q: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;2.6,4.6 4,6',
  R: '0,6 0,0 3,0 4,1 4,2 3,3 0,3;2,3 4,6',
  S: '4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5',
  T: '0,0 4,0;2,0 2,6',
  U: '0,0 0,5 1,6 3,6 4,5 4,0',
  V: '0,0 2,6 4,0',
  W: '0,0 1,6 2,3 3,6 4,0',
  X: '0,0 4,6;4,0 0,6',
  Y: '0,0 2,3 4,0;2,3 2,6',
  Z: '0,0 4,0 0,6 4,6',
  0: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;3.5,1 0.5,5',
  1: '1,1 2,0 2,6;1,6 3,6',
  2: '0,1 1,0 3,0 4,1 4,2 0,6 4,6',
  3: '0,1 1,0 3,0 4,1 4,2 3,3 1.5,3;3,3 4,4 4,5 3,6 1,6 0,5',
  4: '3,6 3,0 0,4 4,4',
  5: '4,0 0,0 0,3 3,3 4,4 4,5 3,6 0,6',
  6: '4,0 2,0 0,2 0,5 1,6 3,6 4,5 4,4 3,3 0,3',
  7: '0,0 4,0 1.5,6',
  8: '1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3',
  9: '0,6 2,6 4,4 4,1 3,0 1,0 0,1 0,2 1,3 4,3',
};

type Segment = readonly [x1: number, y1: number, x2: number, y2: number];

/** The segments of `text`'s glyphs, side by side, scaled and centred in a `size` square. */
function strokes(text: string, size: number): Segment[] {
  const unit = size / 17; // a glyph is 4 by 6 units: about a quarter by a third of the tile
  const gap = 2;
  const width = text.length * 4 + (text.length - 1) * gap;
  const left = (size - width * unit) / 2;
  const top = (size - 6 * unit) / 2;
  return Array.from(text).flatMap((char, index) =>
    (GLYPHS[char] ?? '').split(';').flatMap((line) => {
      const points = line.split(' ').map((point) => point.split(',').map(Number) as [number, number]);
      const toX = (gridX: number) => left + (gridX + index * (4 + gap)) * unit;
      const toY = (gridY: number) => top + gridY * unit;
      return points.slice(1).map(([x2, y2], before) => {
        const [x1, y1] = points[before]!;
        return [toX(x1), toY(y1), toX(x2), toY(y2)] as const;
      });
    }),
  );
}

/** The squared distance from a point to the nearest of `segments`. */
function squaredDistance(px: number, py: number, segments: readonly Segment[]): number {
  let nearest = Infinity;
  for (const [x1, y1, x2, y2] of segments) {
    const dx = x2 - x1;
    const dy = y2 - y1;
    const length = dx * dx + dy * dy;
    const along = length ? Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / length)) : 0;
    const ex = px - (x1 + along * dx);
    const ey = py - (y1 + along * dy);
    nearest = Math.min(nearest, ex * ex + ey * ey);
  }
  return nearest;
}

const SIZE = 80; // twice the card's 40 CSS px, for 2x screens
const RADIUS = 17.5;
const SAMPLES = 4; // 4 by 4 samples a pixel: smooth edges in a 16-color palette

/** Recent icons, as a page asks for the same few again and again; bounded, as any name may be asked for. */
const drawn = new Map<string, Uint8Array<ArrayBuffer>>();

/** An 80x80 rounded tile in the name's color with its initials in white, as a PNG. */
export function iconPng(name: string): Uint8Array<ArrayBuffer> {
  if (!ICON_NAME.test(name))
    throw new Error(`Icon names are 1-40 characters of a-z, 0-9 and "-"; got ${JSON.stringify(name)}.`);
  const cached = drawn.get(name);
  if (cached) return cached;
  // The index is always in range; the fallback only tells the type checker so.
  const hex = PALETTE[hash(name) % PALETTE.length] ?? '#64748b';
  const rgb = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  // Colors 0 to 7: the tile's color at rising opacity (its rounded edge); 8 to 15: the tile blending into
  // white, in eighths (the letters' edges, then the letters).
  const palette: Palette = [
    ...Array.from({ length: 8 }, (_, step) => [rgb[0]!, rgb[1]!, rgb[2]!, Math.round((255 * step) / 7)] as const),
    ...Array.from({ length: 8 }, (_, step) => {
      const [red, green, blue] = rgb.map((channel) => Math.round(channel + ((255 - channel) * (step + 1)) / 8));
      return [red!, green!, blue!, 255] as const;
    }),
  ];
  const initials = name
    .split('-')
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  const segments = strokes(initials, SIZE);
  const half = SIZE / 32; // half the stroke's width
  const inTile = (px: number, py: number) => {
    const dx = Math.max(RADIUS - px, 0, px - (SIZE - RADIUS));
    const dy = Math.max(RADIUS - py, 0, py - (SIZE - RADIUS));
    return dx * dx + dy * dy <= RADIUS * RADIUS;
  };
  /** How many of a pixel's samples pass `inside`: all or none at once where the pixel is clear of the edge. */
  const coverage = (column: number, row: number, clear: boolean, inside: (px: number, py: number) => boolean) => {
    if (clear) return inside(column + 0.5, row + 0.5) ? SAMPLES * SAMPLES : 0;
    let count = 0;
    for (let across = 0; across < SAMPLES; across++)
      for (let down = 0; down < SAMPLES; down++)
        if (inside(column + (across + 0.5) / SAMPLES, row + (down + 0.5) / SAMPLES)) count++;
    return count;
  };
  const all = SAMPLES * SAMPLES;
  const png = palettePng(SIZE, SIZE, palette, (column, row) => {
    const nearEdge = Math.sqrt(squaredDistance(column + 0.5, row + 0.5, segments));
    const ink = coverage(
      column,
      row,
      Math.abs(nearEdge - half) > 0.75,
      (px, py) => inTile(px, py) && squaredDistance(px, py, segments) <= half * half,
    );
    if (ink > 0) return 7 + Math.max(1, Math.round((ink / all) * 8));
    const clearOfCorners = (column > RADIUS && column < SIZE - RADIUS - 1) || (row > RADIUS && row < SIZE - RADIUS - 1);
    return Math.round((coverage(column, row, clearOfCorners, inTile) / all) * 7);
  });
  if (drawn.size >= 64) drawn.delete(drawn.keys().next().value!);
  drawn.set(name, png);
  return png;
}

/** The URL a seed icon value stands for: names map to the API site, absolute http(s) URLs stay. */
export function iconUrl(icon: string, baseUrl: string): string {
  return ICON_NAME.test(icon) ? `${baseUrl}/static/icons/${icon}.png` : icon;
}

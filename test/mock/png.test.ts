// The simulator's PNG encoder and icons, read back by an independent decoder: node:zlib inflates the
// image data, and every chunk's CRC-32 is checked with zlib's own.
import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { iconPng } from '../../packages/hub-embed-mock/src/icons.js';
import { palettePng } from '../../packages/hub-embed-mock/src/png.js';

interface Decoded {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  palette: number[][];
  alpha: number[];
  /** Palette index of each pixel, row by row. */
  pixels: number[];
}

/** A 4-bit palette PNG, decoded; throws on a bad signature, a bad CRC or an unknown filter. */
function decode(png: Uint8Array): Decoded {
  const bytes = Buffer.from(png);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length), `${type} CRC`).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data });
    at += 12 + length;
  }
  expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']);
  const header = chunks[0]!.data;
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const rowBytes = Math.ceil(width / 2);
  expect(raw.length).toBe((rowBytes + 1) * height);
  const pixels: number[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * (rowBytes + 1)], 'filter None').toBe(0);
    for (let x = 0; x < width; x++) {
      const byte = raw[y * (rowBytes + 1) + 1 + (x >> 1)]!;
      pixels.push(x & 1 ? byte & 0x0f : byte >> 4);
    }
  }
  const plte = chunks[1]!.data;
  return {
    width,
    height,
    bitDepth: header[8]!,
    colorType: header[9]!,
    palette: Array.from({ length: plte.length / 3 }, (_, i) => [...plte.subarray(i * 3, i * 3 + 3)]),
    alpha: [...chunks[2]!.data],
    pixels,
  };
}

describe('the PNG encoder (packages/hub-embed-mock/src/png.ts)', () => {
  it('writes a PNG any decoder reads: CRCs check, the zlib stream inflates to exactly the pixels given', () => {
    const palette = [
      [0, 0, 0, 0],
      [255, 0, 0, 255],
      [0, 255, 0, 128],
    ] as const;
    // An odd width: the last byte of each row holds one pixel.
    const pixel = (x: number, y: number) => (x * 7 + y * 3) % 3;
    const decoded = decode(palettePng(5, 3, palette, pixel));
    expect(decoded).toMatchObject({ width: 5, height: 3, bitDepth: 4, colorType: 3 });
    expect(decoded.palette).toEqual(palette.map(([r, g, b]) => [r, g, b]));
    expect(decoded.alpha).toEqual(palette.map(([, , , a]) => a));
    expect(decoded.pixels).toEqual(Array.from({ length: 15 }, (_, i) => pixel(i % 5, Math.floor(i / 5))));
  });

  it('splits image data over 65,535 bytes into several stored blocks that inflate as one', () => {
    const decoded = decode(
      palettePng(
        400,
        400,
        [
          [1, 2, 3, 255],
          [4, 5, 6, 255],
        ],
        (x, y) => (x ^ y) & 1,
      ),
    );
    expect(decoded.pixels.length).toBe(160_000);
    expect(decoded.pixels[401]).toBe(0);
    expect(decoded.pixels[402]).toBe(1);
  });

  it('refuses a palette it cannot write in 4 bits', () => {
    expect(() => palettePng(1, 1, [], () => 0)).toThrow(/1 to 16 colors/);
    expect(() =>
      palettePng(
        1,
        1,
        Array.from({ length: 17 }, () => [0, 0, 0, 255] as const),
        () => 0,
      ),
    ).toThrow(/1 to 16 colors/);
  });
});

describe('the simulator icons', () => {
  it('an icon is an 80x80 tile with transparent rounded corners, its color inside and white initials', () => {
    const icon = decode(iconPng('home-repair'));
    expect([icon.width, icon.height]).toEqual([80, 80]);
    const at = (x: number, y: number) => icon.pixels[y * 80 + x]!;
    expect(icon.alpha[at(0, 0)], 'a corner is transparent').toBe(0);
    expect(icon.alpha[at(40, 3)], 'the tile is opaque').toBe(255);
    // Two letters, H and R: white (the palette's last color) appears on both halves of the tile.
    const white = icon.palette.length - 1;
    expect(icon.palette[white]).toEqual([255, 255, 255]);
    const whiteIn = (x0: number, x1: number) =>
      icon.pixels.filter((index, i) => index === white && i % 80 >= x0 && i % 80 < x1).length;
    expect(whiteIn(0, 40)).toBeGreaterThan(50);
    expect(whiteIn(40, 80)).toBeGreaterThan(50);
  });

  it('the same name always draws the same icon, also once it has left the cache; another name draws another', () => {
    const first = iconPng('legal');
    // The cache keeps the last 64 icons: 64 other names push 'legal' out, so the next one is drawn anew.
    for (let other = 0; other < 64; other++) iconPng(`other-${other}`);
    const again = iconPng('legal');
    expect(again, 'drawn anew, not the cached buffer').not.toBe(first);
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(iconPng('logistics')).equals(Buffer.from(first))).toBe(false);
  });

  it('a name outside [a-z0-9-] is refused, not drawn', () => {
    for (const name of ['<x>', 'UPPER', '', 'a'.repeat(41), '../etc'])
      expect(() => iconPng(name)).toThrow(/Icon names/);
  });
});

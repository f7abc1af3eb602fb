/**
 * A PNG encoder small enough to read: a 4-bit palette image in stored (uncompressed) deflate blocks, so
 * that the simulator draws its icons (icons.ts says why raster) in Node and in a browser tab alike, with
 * no zlib.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let low = 1;
  let high = 0;
  for (const byte of bytes) {
    low = (low + byte) % 65521;
    high = (high + low) % 65521;
  }
  return ((high << 16) | low) >>> 0;
}

const u32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];

function chunk(type: string, data: Uint8Array): number[] {
  const body = new Uint8Array(4 + data.length);
  for (let at = 0; at < 4; at++) body[at] = type.charCodeAt(at);
  body.set(data, 4);
  return [...u32(data.length), ...body, ...u32(crc32(body))];
}

/** A zlib stream of stored deflate blocks (RFC 1950, RFC 1951 section 3.2.4): one at least, 65,535 bytes at most each. */
function stored(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const out: number[] = [0x78, 0x01];
  let at = 0;
  do {
    const block = raw.subarray(at, at + 65535);
    at += 65535;
    const last = at >= raw.length ? 1 : 0;
    const size = block.length;
    out.push(last, size & 0xff, size >>> 8, ~size & 0xff, (~size >>> 8) & 0xff, ...block);
  } while (at < raw.length);
  out.push(...u32(adler32(raw)));
  return Uint8Array.from(out);
}

/** RGBA colors, at most 16. */
export type Palette = readonly (readonly [number, number, number, number])[];

/**
 * A PNG of `width`x`height` pixels, each `pixel(x, y)` an index into `palette` (at most 16 colors: 4 bits
 * a pixel; the alpha of each color goes in a tRNS chunk).
 */
export function palettePng(
  width: number,
  height: number,
  palette: Palette,
  pixel: (column: number, row: number) => number,
): Uint8Array<ArrayBuffer> {
  if (palette.length < 1 || palette.length > 16) throw new Error('A 4-bit palette holds 1 to 16 colors.');
  const rowBytes = Math.ceil(width / 2);
  const raw = new Uint8Array((rowBytes + 1) * height);
  for (let row = 0; row < height; row++) {
    const start = row * (rowBytes + 1); // raw[start] is the row's filter type, 0 (None)
    for (let column = 0; column < width; column++) {
      const index = pixel(column, row) & 0x0f;
      raw[start + 1 + (column >> 1)]! |= column & 1 ? index : index << 4;
    }
  }
  const header = Uint8Array.from([...u32(width), ...u32(height), 4, 3, 0, 0, 0]);
  const bytes = [
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk('IHDR', header),
    ...chunk('PLTE', Uint8Array.from(palette.flatMap(([red, green, blue]) => [red, green, blue]))),
    ...chunk('tRNS', Uint8Array.from(palette.map(([, , , alpha]) => alpha))),
    ...chunk('IDAT', stored(raw)),
    ...chunk('IEND', new Uint8Array(0)),
  ];
  return Uint8Array.from(bytes);
}

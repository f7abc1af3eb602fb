// npm run size:why [-- webview]: which modules the <script> bundle's bytes come from.
// Builds the bundle with a source map into a temporary folder (so two runs can go at once; dist/ gets
// only the form half, and only when it is not built yet), gives each output character to the module the map says it came from, and prints
// each module's raw and gzip -9 bytes. Per-module gzip sums to more than the whole (gzip shares
// repeats across modules); it is a guide to where to look, the build's figure is the one that counts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const which = process.argv[2] ?? 'plain';
const BUILDS = { plain: ['iife', 'hub-embed.iife.js'], webview: ['iife-webview', 'hub-embed-webview.iife.js'] };
if (!(which in BUILDS)) {
  console.error(`Unknown bundle "${which}"; use one of: ${Object.keys(BUILDS).join(', ')}.`);
  process.exit(2);
}
const [mode, file] = BUILDS[which];
// The first file carries the form half's integrity value, read from dist/: on a fresh clone, build that
// one chunk first (the same step `npm run build` starts with) instead of failing.
if (!existsSync('dist/hub-embed.form.js')) {
  console.log('dist/hub-embed.form.js is not built yet: building the form half first.');
  await build({ configFile: 'vite.config.ts', mode: 'form-chunk', logLevel: 'warn' });
}
const outDir = mkdtempSync(join(tmpdir(), 'hub-size-'));
try {
  await build({ configFile: 'vite.config.ts', mode, logLevel: 'silent', build: { outDir, sourcemap: true } });
  const code = readFileSync(join(outDir, file), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '');
  const map = JSON.parse(readFileSync(join(outDir, `${file}.map`), 'utf8'));
  const owners = attribute(code, map);
  const rows = [...owners].map(([source, text]) => ({
    source: shorten(source),
    raw: text.length,
    gzip: gzipSync(text, { level: 9 }).length,
  }));
  rows.sort((a, b) => b.gzip - a.gzip);
  console.log(
    `${file}: ${code.length} bytes, ${gzipSync(code, { level: 9 }).length} bytes gzip -9 (without the source-map comment)`,
  );
  console.log(' gzip    raw  module');
  for (const { source, raw, gzip } of rows)
    console.log(`${String(gzip).padStart(5)} ${String(raw).padStart(6)}  ${source}`);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

/** Source-map segments -> the text each source module produced (unmapped text goes to "(glue)"). */
function attribute(code, map) {
  const owners = new Map();
  const lines = code.split('\n');
  let source = 0;
  map.mappings.split(';').forEach((line, index) => {
    const text = lines[index] ?? '';
    const segments = line.split(',').filter(Boolean).map(decodeVlq);
    let column = 0;
    if (segments.length === 0 || segments[0][0] > 0)
      add(owners, '(glue)', text.slice(0, segments[0]?.[0] ?? text.length));
    segments.forEach((segment, i) => {
      column += segment[0];
      if (segment.length > 1) source += segment[1];
      const end = i + 1 < segments.length ? column + segments[i + 1][0] : text.length;
      add(owners, segment.length > 1 ? map.sources[source] : '(glue)', text.slice(column, end));
    });
  });
  return owners;
}

function add(owners, name, text) {
  owners.set(name, (owners.get(name) ?? '') + text);
}

function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >> 1) : value >> 1);
      value = shift = 0;
    }
  }
  return values;
}

function shorten(source) {
  if (source === '(glue)') return source;
  return source.includes('node_modules/')
    ? source.replace(/^.*node_modules\//, '')
    : relative(process.cwd(), resolve(outDir, source));
}

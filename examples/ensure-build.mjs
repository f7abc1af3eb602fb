// Builds the package when dist/ is missing or older than the sources, so that the examples import
// `hub-embed/...` from the built package exactly as an installed copy would be imported.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outputs = [
  'dist/server.js',
  'packages/hub-embed-mock/dist/index.js',
  'dist/react.js',
  'dist/vue.js',
  'dist/hub-embed.iife.js.sri',
];

/** @param {string} dir @returns {number} */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = outputs.every((file) => existsSync(join(root, file)));
const stale =
  built &&
  Math.max(newestSource(join(root, 'src')), newestSource(join(root, 'packages/hub-embed-mock/src'))) >
    Math.min(...outputs.map((f) => statSync(join(root, f)).mtimeMs));
if (!built || stale) {
  console.log(built ? 'src/ changed since the last build: npm run build' : 'dist/ is missing: npm run build');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}

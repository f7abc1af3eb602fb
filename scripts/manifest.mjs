// Writes custom-elements.json from the elements' JSDoc. `--check` fails when the committed file is stale
// (CI runs the check, so the manifest and README tables cannot drift from the code).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const out = mkdtempSync(join(tmpdir(), 'cem-'));
execFileSync('npx', ['cem', 'analyze', '--litelement', '--globs', 'src/components/**/*.ts', '--exclude', 'src/components/**/*.styles.ts', '--outdir', out, '--quiet'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const fresh = JSON.stringify(JSON.parse(readFileSync(join(out, 'custom-elements.json'), 'utf8')), null, 2) + '\n';
if (check) {
  const current = existsSync('custom-elements.json') ? readFileSync('custom-elements.json', 'utf8') : '';
  if (current !== fresh) {
    console.error('custom-elements.json is stale: run `npm run build` (or `node scripts/manifest.mjs`) and commit it.');
    process.exit(1);
  }
  console.log('custom-elements.json is current.');
} else {
  writeFileSync('custom-elements.json', fresh);
  console.log('custom-elements.json written.');
}

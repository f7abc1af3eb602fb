// Keeps README code blocks equal to the files they come from, so the README shows code that runs:
//   <!-- from: examples/express/app.js#readme-express -->   the next code block is that region of the file
//                                                          (several `file#region` are joined by a blank line)
//   <!-- generated: cdn-script-tag -->                     the CDN <script> tag of the released version
// A region is the lines between `#region name` and `#endregion name` (in a // or <!-- --> comment),
// dedented. `--check` fails on any difference (CI's docs lane), and on a CDN tag that does not name
// package.json's version; without it the regions are rewritten. The CDN tag names a release, so only the
// release step writes it (`npm run release`, which runs this with `--release`); a build leaves it as it is.
// The tag pins no integrity value: the README would hold the right one only at the commit of a release,
// and every build between two releases changes it. It says where the release's value is read instead: the
// `.sri` file the package ships beside the script (the package lane checks that it is the script's hash).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const MARKER = /^<!-- (from|generated): (.+?) -->\n```(\w+)\n(?:[\s\S]*?\n)??```$/gm;

/** The lines between the #region and #endregion comments named `name`, without their common indent. */
export function region(text, name, file) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => new RegExp(`#region ${name}\\b`).test(line));
  const end = lines.findIndex((line, i) => i > start && new RegExp(`#endregion ${name}\\b`).test(line));
  if (start < 0 || end < 0) throw new Error(`${file}: no region "${name}" (#region ${name} ... #endregion ${name}).`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((line) => line.trim()).map((line) => line.match(/^ */)[0].length));
  return body.map((line) => line.slice(indent)).join('\n');
}

/** Where a release's script is on the CDN; its integrity value is the `.sri` file beside it. */
export const cdnScript = (version) => `https://cdn.jsdelivr.net/npm/hub-embed@${version}/dist/hub-embed.iife.js`;

function generated(name) {
  if (name !== 'cdn-script-tag') throw new Error(`Unknown generated block "${name}".`);
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  return [
    `<!-- integrity: the sha384-… line of ${cdnScript(version)}.sri -->`,
    `<script src="${cdnScript(version)}" integrity="" crossorigin="anonymous" defer></script>`,
  ].join('\n');
}

/**
 * The problems of a document's CDN tags: each must name `version` (package.json's by default), pin no
 * integrity value, and name the `.sri` file of that version where the value is read.
 */
export function cdnTagProblems(markdown, version = JSON.parse(readFileSync('package.json', 'utf8')).version) {
  return [...markdown.matchAll(MARKER)]
    .filter(([, kind, what]) => kind === 'generated' && what.trim() === 'cdn-script-tag')
    .flatMap(([block]) => {
      const problems = [];
      if (!block.includes(`src="${cdnScript(version)}"`))
        problems.push(`the CDN tag does not name hub-embed@${version}`);
      if (/integrity="sha\d+-/.test(block))
        problems.push('the CDN tag pins an integrity value, right only at the commit of a release');
      if (!block.includes(`${cdnScript(version)}.sri`))
        problems.push(`the CDN tag does not say to read ${cdnScript(version)}.sri`);
      return problems;
    });
}

/** The document with every `from:` block refreshed, and with `release` its CDN tag written from this build. */
export function withRegions(markdown, { release = false } = {}) {
  return markdown.replace(MARKER, (block, kind, what, lang) => {
    if (kind === 'generated' && !release) return block;
    const body =
      kind === 'generated'
        ? generated(what.trim())
        : what
            .trim()
            .split(/\s+/)
            .map((ref) => {
              const [file, name] = ref.split('#');
              return region(readFileSync(file, 'utf8'), name, file);
            })
            .join('\n\n');
    return `<!-- ${kind}: ${what} -->\n\`\`\`${lang}\n${body}\n\`\`\``;
  });
}

/** The documents this script keeps; others with markers are checked by their own tests. */
const DOCUMENTS = ['README.md', 'docs/server.md', 'docs/react-native.md', 'docs/frameworks.md'];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const check = process.argv.includes('--check');
  const release = process.argv.includes('--release');
  for (const file of DOCUMENTS) {
    const text = readFileSync(file, 'utf8');
    const fresh = withRegions(text, { release });
    if (check && fresh !== text) {
      console.error(`${file} code blocks differ from the files they come from: run \`node scripts/doc-regions.mjs\`.`);
      process.exit(1);
    }
    const problems = check ? cdnTagProblems(text) : [];
    if (problems.length) {
      console.error(`${file}: ${problems.join('; ')}: run \`npm run release\` to release.`);
      process.exit(1);
    }
    if (!check) writeFileSync(file, fresh);
    console.log(check ? `${file} code blocks match their files.` : `${file} code blocks refreshed from their files.`);
  }
}

// Issue 37, item 6: the byte idioms removed from src/ cannot come back, because eslint.config.js refuses each.
// Every sample below is a line that src/ had before (file named), linted with the rules of that config.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import config, { IDIOMS } from '../../eslint.config.js';

/** The block of eslint.config.js that carries the idiom rules. */
const block = config.find(
  (entry) =>
    entry.rules?.['no-restricted-syntax'] && entry.files?.includes('src/**/*.ts') && entry.rules['no-multi-assign'],
);

async function problems(code: string): Promise<string[]> {
  const eslint = new ESLint({
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: block!.rules }],
  });
  const [result] = await eslint.lintText(code, { filePath: 'sample.ts' });
  // Errors only: a warning would let the idiom back in under a lint that allows warnings.
  return result!.messages
    .filter((message) => message.severity === 2)
    .map((message) => `${message.ruleId}: ${message.message}`);
}

describe('idiom rules (issue 37, item 6)', () => {
  it('the config has the block, with a rule for each idiom no built-in rule names', () => {
    expect(block).toBeDefined();
    expect(block!.rules!['no-restricted-syntax']).toEqual(['error', ...IDIOMS]);
  });

  it.each([
    [
      '`return void call()` (src/server/node.ts)',
      'const f = (chunks: number[], chunk: number) => { return void chunks.push(chunk); };',
      'return void',
    ],
    [
      '`Object(value) as …` (src/core/web-client.ts)',
      'const { name } = Object(item) as Record<string, unknown>;',
      'Object(value) as T',
    ],
    [
      "the lying index `error.kind as 'api'` (src/components/hub-embed/hub-embed.ts)",
      "const text = t[error.kind as 'api'] ?? t.api;",
      'lies about the key',
    ],
    [
      'a side effect in a condition: `push(...) > 20` (src/components/hub-form-frame/hub-form-frame.ts)',
      'if (waiting.push(run) > 20) waiting.shift();',
      'side effect',
    ],
    [
      'a side effect in a condition: `--waiters === 0` (src/core/token-source.ts)',
      'if (--waiters === 0 && done) stop();',
      'side effect',
    ],
    [
      '`return (this.x = y)` (src/components/hub-embed/table-loader.ts)',
      'function setup() { return (cache.client = client); }',
      'assign, then return',
    ],
    [
      'a chained assignment (packages/hub-embed-mock/src/trigger.ts)',
      'target = target[segment] = {};',
      'no-multi-assign',
    ],
    [
      'a chained assignment (src/components/hub-embed/hub-embed.ts)',
      "a.tokenEndpoint = a.baseUrl = a.formUrl = '';",
      'no-multi-assign',
    ],
    ['a comma sequence', 'const x = (f(), g());', 'no-sequences'],
    ['an assignment as a condition', 'while ((match = pattern.exec(text))) use(match);', 'no-cond-assign'],
  ])('refuses %s', async (_idiom, code, expected) => {
    const found = await problems(code);
    expect(
      found.some((message) => message.includes(expected)),
      found.join('\n'),
    ).toBe(true);
  });

  it('lets the plain forms through', async () => {
    const plain = [
      'function f(chunks: number[], chunk: number) { chunks.push(chunk); return; }',
      'waiting.push(run);\nif (waiting.length > 20) waiting.shift();',
      'const text = (t as Partial<Record<string, string>>)[error.kind] ?? t.api;',
      'if (isRecord(item)) use(item);',
      'queueMicrotask(() => void kernel.setTags(tags));',
    ].join('\n');
    expect(await problems(plain)).toEqual([]);
  });
});

describe("typescript-eslint's strictTypeChecked over src/ (issue 37, item 7)", () => {
  // A rule of strictTypeChecked that recommendedTypeChecked lacks, and one whose options this config sets.
  const severity = (value: unknown) => (Array.isArray(value) ? value[0] : value);

  it.each([
    'src/core/web-client.ts',
    'src/components/hub-embed/table-loader.ts',
    'src/server/node.ts',
    'packages/hub-embed-mock/src/hub.ts',
  ])('%s is linted with the strict rules', async (file) => {
    const config = await new ESLint().calculateConfigForFile(file);
    expect(severity(config.rules['@typescript-eslint/no-unnecessary-type-parameters'])).toBe(2);
    expect(severity(config.rules['@typescript-eslint/no-dynamic-delete'])).toBe(2);
    // Numbers may go into template strings; undefined, booleans and objects may not.
    expect(config.rules['@typescript-eslint/restrict-template-expressions']).toEqual([
      2,
      expect.objectContaining({ allowNumber: true, allowNullish: false, allowBoolean: false, allowAny: false }),
    ]);
  });
});

describe('one-letter names (issue 37, item 6)', () => {
  it.each([
    'src/server/node.ts',
    'src/core/web-client.ts',
    'src/components/hub-embed/hub-embed.ts',
    'src/host/mock-host.ts',
    'packages/hub-embed-mock/src/seed.ts',
  ])('%s refuses them, but for `_` and the texts table `t`', async (file) => {
    const config = await new ESLint().calculateConfigForFile(file);
    expect(config.rules['id-length']).toEqual([2, expect.objectContaining({ min: 2, exceptions: ['_', 't'] })]);
  });
});

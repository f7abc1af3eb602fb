// npm run lint: zero warnings allowed (CI runs it). Prettier owns formatting; ESLint owns meaning.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

/** Byte idioms that no built-in rule names; test/package/idiom-rules.test.ts shows each fires. */
export const IDIOMS = [
  {
    selector: "ReturnStatement > UnaryExpression[operator='void']",
    message: '`return void call()`: call, then return, on two lines.',
  },
  {
    selector: 'ReturnStatement > AssignmentExpression',
    message: '`return (this.x = y)`: assign, then return.',
  },
  {
    selector: "TSAsExpression > CallExpression.expression[callee.name='Object']",
    message: '`Object(value) as T` claims fields nobody checked: narrow with a type guard (typeof, isRecord).',
  },
  {
    selector: 'MemberExpression[computed=true] > TSAsExpression.property > TSLiteralType.typeAnnotation',
    message: 'An index cast to one literal key lies about the key: narrow it, or widen the object being indexed.',
  },
  {
    selector:
      ':matches(IfStatement, WhileStatement, DoWhileStatement, ConditionalExpression) > .test :matches(CallExpression[callee.property.name=/^(push|unshift|splice)$/], AssignmentExpression, UpdateExpression)',
    message: 'A condition with a side effect (push, assignment, ++): do it first, then test the result.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'packages/*/dist/',
      'node_modules/',
      'coverage/',
      'examples/*/dist/',
      'examples/*/node_modules/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `a && b()` and `a || b()` as statements hide control flow: write an if.
      '@typescript-eslint/no-unused-expressions': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // No innerHTML, outerHTML, insertAdjacentHTML or eval anywhere: Lit templates only (strict CSP, Trusted Types).
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Use a Lit template or textContent.' },
        { property: 'outerHTML', message: 'Use a Lit template or textContent.' },
        { property: 'insertAdjacentHTML', message: 'Use a Lit template.' },
      ],
      // A variable a cleanup closure reads before it is first set must stay `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The validators match control characters on purpose (link_url, API keys, bundle bytes).
      'no-control-regex': 'off',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    // Rules that read the types, over all of src/.
    files: ['src/**/*.ts', 'packages/hub-embed-mock/src/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Passing on a value we were handed (an abort signal's reason, a caught error) is not inventing a
      // non-Error: the same allowance only-throw-error makes for `throw` by default.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    // The strict rules that read the types, over src/; tests stay on the config above.
    files: ['src/**/*.ts', 'packages/hub-embed-mock/src/**/*.ts'],
    ignores: ['packages/hub-embed-mock/src/console-ui/bundle.generated.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    rules: {
      // A number reads the same in every message and URL; what this rule is for is `undefined`, objects
      // and booleans turning into text, which stay refused.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowAny: false,
          allowBoolean: false,
          allowNullish: false,
          allowRegExp: false,
          allowNever: false,
          allowNumber: true,
        },
      ],
      // `() => frame.remove()` as a callback returns nothing anybody reads; `return voidCall()` in a body
      // stays refused (`return void call()`).
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // The same for `'&limit=' + limit`.
      '@typescript-eslint/restrict-plus-operands': [
        'error',
        { allowAny: false, allowBoolean: false, allowNullish: false, allowRegExp: false, allowNumberAndString: true },
      ],
      // As in the block above: passing on a value we were handed is not inventing a non-Error.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Off, each for one reason. The public functions and elements check at run time what JavaScript
      // callers and page scripts pass (`options?.client`, `String(table.name ?? '')`, `handled === true`):
      // the types say what is accepted, the checks what arrives, and these three rules would take out
      // exactly the checks that turn bad input into a clear error.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      '@typescript-eslint/no-unnecessary-boolean-literal-compare': 'off',
      // With noUncheckedIndexedAccess every index is `T | undefined`; a `!` after an index the code has
      // checked (a regex group that matched, a bound the loop keeps) says what is known, and a runtime check
      // there is dead code that, in the browser files, costs bytes the budget does not have. Of the 93 `!` in
      // src/ (bridge aside) 56 follow an index; the other 37 read a field another field's check has set
      // (`ok: false` has `error`, a handler checked present) and want types that say so: left for later.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Idioms written for bytes, not for readers: the minifier shortens what it can.
    files: ['src/**/*.ts', 'packages/hub-embed-mock/src/**/*.ts'],
    ignores: ['packages/hub-embed-mock/src/console-ui/bundle.generated.ts'],
    rules: {
      // `a = b = c`: one assignment a statement, so each target reads on its own line.
      'no-multi-assign': 'error',
      // `(a(), b)`: two statements.
      'no-sequences': ['error', { allowInParentheses: false }],
      // `if ((x = next()))`: an assignment is not a condition.
      'no-cond-assign': ['error', 'always'],
      'no-restricted-syntax': ['error', ...IDIOMS],
    },
  },
  {
    // One-letter names, where they are gone. `t` stays for the texts table of the elements,
    // after the i18n convention (`t.retry` as i18next's `t('retry')`): it is an element property, whose name
    // the minifier cannot shorten (the simulator's console reads its table the same way).
    files: ['src/**/*.ts', 'packages/hub-embed-mock/src/**/*.ts'],
    ignores: ['packages/hub-embed-mock/src/console-ui/bundle.generated.ts'],
    rules: { 'id-length': ['error', { min: 2, properties: 'never', exceptions: ['_', 't'] }] },
  },
  {
    // Lit calls an @event listener with `this` set to the element that rendered it, so `@click=${this.save}`
    // passes a method safely; that is all unbound-method finds in Lit elements.
    files: ['src/components/**/*.ts', 'packages/hub-embed-mock/src/console-ui/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    files: ['src/components/**/*.ts', 'src/define.ts', 'src/webview.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/components/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
  {
    // The mock host plays every native host and their untyped globals (window.webkit, ReactNativeWebView,
    // wx.miniProgram, ...). The page side (src/bridge) reads those as `unknown` and checks them.
    files: ['src/host/mock-host.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // "host" already means the native host (bridge, host/) and the shadow host (:host); on the server side a
    // name says which other thing it is: hostHeader (the HTTP Host header), hostname, or bindAddress. The
    // simulator's `host` option and the CLI's --host keep the word server.listen uses for a bind address;
    // cli.ts's option table is named after the flags.
    files: ['src/server/**/*.ts', 'packages/hub-embed-mock/src/**/*.ts'],
    ignores: ['packages/hub-embed-mock/src/cli.ts'],
    rules: { 'id-denylist': ['error', 'host'] },
  },
  {
    // In the elements "host" is the native host only (HostLink; the controllers reach it through link()); what
    // a controller serves is its element (LoaderElement, OpenerElement, #element); `:host` is CSS.
    files: ['src/components/**/*.ts'],
    rules: {
      'id-denylist': ['error', 'host'],
      // The same rule as the idioms' block above, which this block would otherwise replace here.
      'no-restricted-syntax': [
        'error',
        ...IDIOMS,
        {
          selector:
            ':matches(TSInterfaceDeclaration, TSTypeAliasDeclaration, ClassDeclaration) > Identifier.id[name=/Host$/]',
          message: 'In src/components "host" is the native host only: name what a controller serves ...Element.',
        },
      ],
    },
  },
  {
    // WeChat mini-program pages: CommonJS, with the mini-program's globals.
    files: ['examples/wechat/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { Page: 'readonly', wx: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // End-to-end tests parse and dump the page under test's markup; that page has no Trusted Types.
    files: ['test/e2e/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);

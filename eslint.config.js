// npm run lint: zero warnings allowed (CI runs it). Prettier owns formatting; ESLint owns meaning.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'examples/*/dist/', 'examples/*/node_modules/'] },
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
    files: ['src/components/**/*.ts', 'src/define.ts', 'src/webview.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/components/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
  {
    // Native hosts inject untyped globals (window.webkit, ReactNativeWebView, wx.miniProgram, ...) and their
    // messages; the bridge narrows them at run time (protocol.ts), so their static type is honestly `any`.
    files: ['src/bridge/**/*.ts', 'src/webview/host-link.ts', 'src/host/mock-host.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
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

import { afterEach } from 'vitest';

// Lit warns once per page that it runs in dev mode: true in tests, which import src/ and Lit's development
// build on purpose (its extra checks catch mistakes). Lit skips a warning whose code is already in
// litIssuedWarnings, so the expected line stays out of the test output; every other warning still shows.
(globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings ??= new Set(['dev-mode']);

// No test may leave a Lit development warning about our elements (lit.dev/msg/…, such as "scheduled an
// update after an update completed"): what a test's page logs is what every app's dev console would.
const litWarnings: string[] = [];
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (String(args[0]).includes('lit.dev/msg/')) litWarnings.push(String(args[0]));
  warn(...args);
};
afterEach(() => {
  const seen = litWarnings.splice(0);
  if (seen.length) throw new Error(`Lit warned in development:\n${seen.join('\n')}`);
});

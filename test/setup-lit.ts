// Lit warns once per page that it runs in dev mode: true in tests, which import src/ and Lit's development
// build on purpose (its extra checks catch mistakes). Lit skips a warning whose code is already in
// litIssuedWarnings, so the expected line stays out of the test output; every other warning still shows.
(globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings ??= new Set(['dev-mode']);

// The TypeScript releases a user's project may compile hub-embed's declarations with: each major the package
// lane type-checks the packed entries under (tarball.test.ts), pinned to its newest release on npm. 5.9 is
// the last of the compiler written in TypeScript before 6; 7 is the native one (`typescript@7`, the same
// `tsc` command). test/package/support-lines.test.ts fails when one is dropped.
export const TYPESCRIPT_RELEASES = { '5.9': '5.9.3', '6': '6.0.3', '7': '7.0.2' } as const;

export type TypeScriptMajor = keyof typeof TYPESCRIPT_RELEASES;

/** The majors, oldest first (an object lists `6` and `7`, integer keys, before `5.9`). */
export const TYPESCRIPT_MAJORS = (Object.keys(TYPESCRIPT_RELEASES) as TypeScriptMajor[]).sort(
  (a, b) => Number(a) - Number(b),
);

/** The name a release is installed under in a scratch project, so the three sit side by side. */
export const typescriptAlias = (major: TypeScriptMajor): string => `typescript-${major}`;

/** npm install's spec of each release under its alias (`typescript-6@npm:typescript@6.0.3`). */
export const typescriptSpecs = (): string[] =>
  TYPESCRIPT_MAJORS.map((major) => `${typescriptAlias(major)}@npm:typescript@${TYPESCRIPT_RELEASES[major]}`);

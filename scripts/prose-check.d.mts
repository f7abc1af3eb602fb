/** The oldest Node package.json's engines admits, as [major, minor]. */
export declare function enginesFloor(range?: string): [number, number];
/** Every finding in a file's text: the line, the rule and the text it matched. */
export declare function findingsOf(
  file: string,
  text: string,
  floor?: [number, number],
): { line: number; rule: string; text: string }[];
/** The prose lines of a file: all of Markdown, the comments of code. */
export declare function proseLines(file: string, text: string): [number, string][];
/** The files the check reads, relative to the repository's root. */
export declare function checkedFiles(root?: string): string[];

/** Where the build writes VS Code's HTML custom data. */
export const VSCODE_FILE: string;
/** Where the build writes VS Code's CSS custom data (the --hub-* properties and ::part() names). */
export const VSCODE_CSS_FILE: string;
/** Where the build writes JetBrains web-types (package.json's `web-types`). */
export const WEB_TYPES_FILE: string;
/** The three files' text by path, from the manifest of the elements and package.json in `root`. */
export function editorFiles(root?: string): Record<string, string>;

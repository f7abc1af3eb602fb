export declare function declaredPackages(pkg: {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}): string[];
export declare function isDeclared(specifier: string, packages: string[]): boolean;
export declare function importsOf(code: string): string[];
export declare const INLINED: [RegExp, string][];
export declare function distImportProblems(packageDir: string, distDir?: string): string[];

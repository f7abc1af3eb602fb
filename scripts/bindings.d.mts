export declare function elementsOf(manifest: unknown): {
  tag: string;
  className: string;
  properties: string[];
  renamedAttributes: { attribute: string; property: string }[];
  events: string[];
}[];
export declare function bindingsFrom(manifest: unknown): Record<string, string>;
export declare function syncBindings(manifest: unknown, options?: { check?: boolean }): Promise<string[]>;

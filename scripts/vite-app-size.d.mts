export interface FirstLoad {
  files: string[];
  bytes: number;
  gzip: number;
}
export declare function viteAppFirstLoad(): Promise<{ bytes: number; gzip: number; alone: FirstLoad }>;

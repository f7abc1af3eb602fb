export declare const SHARD_SPREAD_S: number;
export declare const SHARD_GOAL_S: number;
/** `{ lane: seconds }` from `.ci/run` summaries. */
export declare function parseSummaries(text: string): Record<string, number>;
/** A lane's time as CONTRIBUTING.md's table writes it. */
export declare function rounded(seconds: number): string;
/** The table's time in seconds. */
export declare function seconds(about: string): number;
/** The lane table's rows. */
export declare function tableRows(markdown: string): { lane: string; about: string; index: number }[];
/** The table with its times replaced where `times` has them. */
export declare function withTimes(markdown: string, times: Record<string, number>): string;
/** The lanes of one shard, each with whether it runs beside the others. */
export declare function shardLanes(shard: number): { lane: string; beside: boolean }[];
/** A shard's time by the table. */
export declare function shardSeconds(
  lanes: { lane: string; beside: boolean }[],
  table: { lane: string; about: string; index: number }[],
): number;

/** The token endpoint's failure reports: onError once per distinct failure per window, repeats counted. */

export function defaultOnError(error: unknown): void {
  // Client errors are already free of the key; print name and message only, never request details.
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(`[hub-embed/server] token endpoint failed: ${text}`);
}

/** How long one failure is reported once; repeats within it are counted into the next report. */
const REPORT_WINDOW_MS = 10_000;
const MAX_REPORT_KINDS = 100;

/**
 * onError, called once per distinct failure per window. A Redis outage or a down service fails every
 * request the same way; 3,000 requests made 12,003 reports before. Repeats are counted, and the first
 * report after the window is preceded by how many were held back.
 */
export function aggregateReports(onError: (error: unknown) => void, now: () => number): (error: unknown) => void {
  const seen = new Map<string, { until: number; held: number }>();
  const call = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // Logging must not change the answer.
    }
  };
  return (error) => {
    const key = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const at = now();
    const entry = seen.get(key);
    if (entry && at < entry.until) {
      entry.held++;
      return;
    }
    if (entry?.held) call(new Error(`${entry.held} more like this in ${REPORT_WINDOW_MS / 1000} s: ${key}`));
    if (!entry && seen.size >= MAX_REPORT_KINDS) seen.clear();
    seen.set(key, { until: at + REPORT_WINDOW_MS, held: 0 });
    call(error);
  };
}

/** The grades as a person reads them (a table), as JSON, and as JUnit XML for the integrator's CI. */
import type { RuleResult } from './grading.js';
import { printable } from './probe.js';

export interface CertifyReport {
  /** True when every required rule passed: the exit code is 0 exactly then. */
  ok: boolean;
  baseUrl: string;
  formUrl: string;
  receiver: string | null;
  tokenRoute: string | null;
  rules: RuleResult[];
  passed: number;
  failed: number;
  notConfigured: number;
  ms: number;
}

export function summarise(
  rules: RuleResult[],
  run: Pick<CertifyReport, 'baseUrl' | 'formUrl' | 'receiver' | 'tokenRoute' | 'ms'>,
): CertifyReport {
  const failed = rules.filter((rule) => rule.required && rule.grade !== 'pass').length;
  return {
    ok: failed === 0 && rules.length > 0,
    ...run,
    rules,
    passed: rules.filter((rule) => rule.grade === 'pass').length,
    failed,
    notConfigured: rules.filter((rule) => rule.grade === 'not-configured').length,
  };
}

const MARK = { pass: 'PASS', fail: 'FAIL', 'not-configured': 'SKIP' } as const;
const EXCHANGES_SHOWN = 8;

export function table(report: CertifyReport): string {
  const width = Math.max(...report.rules.map((rule) => rule.id.length), 4);
  const lines = [`${'GRADE'.padEnd(6)}${'RULE'.padEnd(width + 2)}WHAT IT SAYS`];
  for (const rule of report.rules) {
    lines.push(`${MARK[rule.grade].padEnd(6)}${rule.id.padEnd(width + 2)}${rule.title} (${rule.ms} ms)`);
    // `why` and the exchanges quote what the backend sent: printed, never acted on by the terminal.
    if (rule.why) lines.push(`${' '.repeat(width + 8)}${rule.grade === 'fail' ? 'why: ' : ''}${printable(rule.why)}`);
    const shown = rule.exchanges.slice(0, EXCHANGES_SHOWN);
    for (const line of shown) lines.push(`${' '.repeat(width + 8)}| ${printable(line)}`);
    if (rule.exchanges.length > shown.length)
      lines.push(`${' '.repeat(width + 8)}| … ${rule.exchanges.length - shown.length} more (--json has them all)`);
  }
  lines.push(
    '',
    `${report.passed} passed, ${report.failed} failed, ${report.notConfigured} not configured, in ${(report.ms / 1000).toFixed(1)} s: ${
      report.ok ? 'CERTIFIED' : 'NOT CERTIFIED'
    }`,
  );
  return lines.join('\n');
}

/**
 * The report as JSON for a terminal or a file: JSON.stringify escapes C0 controls only, so the rest a
 * terminal would act on (C1, bidi overrides, …) is escaped as \uXXXX too; it parses to the same report.
 */
export function json(report: CertifyReport): string {
  return JSON.stringify(report, null, 2).replace(
    /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function xml(text: string): string {
  return text
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd]/g, '\ufffd')
    .replace(
      /[&<>"']/g,
      (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
    );
}

export function junit(report: CertifyReport): string {
  const suites = (['token-route', 'receiver'] as const).map((part) => {
    const rules = report.rules.filter((rule) => rule.part === part);
    if (rules.length === 0) return '';
    const cases = rules.map((rule) => {
      const open = `    <testcase classname="hub-embed-certify.${part}" name="${xml(`${rule.id}: ${rule.title}`)}" time="${(rule.ms / 1000).toFixed(3)}"`;
      const out = `      <system-out>${xml(rule.exchanges.join('\n'))}</system-out>\n`;
      if (rule.grade === 'pass') return `${open}>\n${out}    </testcase>`;
      if (rule.grade === 'not-configured')
        return `${open}>\n      <skipped message="${xml(rule.why ?? '')}"/>\n    </testcase>`;
      return `${open}>\n      <failure message="${xml(rule.why ?? 'failed')}"/>\n${out}    </testcase>`;
    });
    const failures = rules.filter((rule) => rule.grade === 'fail').length;
    const skipped = rules.filter((rule) => rule.grade === 'not-configured').length;
    const time = rules.reduce((sum, rule) => sum + rule.ms, 0) / 1000;
    return `  <testsuite name="hub-embed certify: ${part}" tests="${rules.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="hub-embed certify">\n${suites.filter(Boolean).join('\n')}\n</testsuites>\n`;
}

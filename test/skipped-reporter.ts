// A Vitest reporter that adds one line per project with skipped tests, saying why they were skipped, so a
// reader of a green run knows what did not run and where it did.
import type { Reporter, TestModule } from 'vitest/node';

/** Why each project skips what it skips. A project with skips and no reason here says so. */
const REASONS: Record<string, string> = {
  'components-happy-dom':
    'they need real layout, focus or a real form page (axe, sizes, frames) and run in the browser project, in Chromium',
  node: 'a real service they need is missing on this machine (see the loud line above; CI requires it)',
  browser: 'the axe and focus-ring pixel tests, which run in the a11y lane (npm run ci -- a11y)',
  a11y: 'this lane runs only the axe and focus-ring pixel tests; the browser project of npm test runs the rest',
};

export default class SkippedReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = new Map<string, number>();
    for (const module of modules) {
      const count = [...module.children.allTests('skipped')].length;
      if (count) skipped.set(module.project.name, (skipped.get(module.project.name) ?? 0) + count);
    }
    for (const [project, count] of skipped)
      console.log(
        `Skipped in ${project}: ${count} test${count === 1 ? '' : 's'}; ${REASONS[project.replace(/ \(\w+\)$/, '')] ?? 'no reason on file in test/skipped-reporter.ts'}.`,
      );
  }
}

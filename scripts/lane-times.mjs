// CONTRIBUTING.md's lane table is the one place lane times are written; this script writes them, from the
// summaries `.ci/run` prints at its end ("== lane times …", one line per lane), never by hand:
//   bash .ci/run --shard 1/2 | tee shard1.log; bash .ci/run --shard 2/2 | tee shard2.log
//   node scripts/lane-times.mjs shard1.log shard2.log     rewrites the table's "about" column
//   node scripts/lane-times.mjs --check                   prints each shard's time by the table; fails when
//                                                         the two are more than SHARD_SPREAD_S apart, or
//                                                         one is over SHARD_GOAL_S
// A lane's time rounds to what a reader needs: "seconds" under 15 s, then 5 s steps, then half minutes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CONTRIBUTING = fileURLToPath(new URL('../CONTRIBUTING.md', import.meta.url));
/** The two shards on 2-core runners: at most this far apart, and each at most SHARD_GOAL_S. */
export const SHARD_SPREAD_S = 4 * 60;
export const SHARD_GOAL_S = 15 * 60;

/** `{ lane: seconds }` from the `.ci/run` summaries in `text` (a lane seen twice keeps its last time). */
export function parseSummaries(text) {
  const times = {};
  let inSummary = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('== lane times')) inSummary = true;
    else if (!line.startsWith('   ')) inSummary = false;
    else if (inSummary) {
      const match = /^\s+(\S+)\s+(\d+) s/.exec(line);
      if (match) times[match[1]] = Number(match[2]);
    }
  }
  return times;
}

/** A lane's time as the table writes it. */
export function rounded(seconds) {
  if (seconds < 15) return 'seconds';
  if (seconds < 60) return `${Math.round(seconds / 5) * 5} s`;
  const halves = Math.round(seconds / 30) / 2;
  return `${halves} min`;
}

/** The table's time in seconds: "seconds" as 10, "30 s", "1.5 min", and a range "1–2 min" as its upper end. */
export function seconds(about) {
  if (about === 'seconds') return 10;
  const match = /^(?:[\d.]+–)?([\d.]+) (s|min)$/.exec(about);
  if (!match) throw new Error(`CONTRIBUTING.md: a lane time "${about}" that is not "seconds", "N s" or "N min"`);
  return Number(match[1]) * (match[2] === 'min' ? 60 : 1);
}

/** The lane table's rows: `{ lane, about, index }`, `index` the row's line in `markdown`. */
export function tableRows(markdown) {
  return markdown
    .split('\n')
    .map((line, index) => ({ cells: line.split('|').map((cell) => cell.trim()), index }))
    .filter(({ cells }) => cells.length === 6 && /^[a-z][a-z0-9-]*$/.test(cells[1]) && cells[1] !== 'lane')
    .map(({ cells, index }) => ({ lane: cells[1], about: cells[3], index }));
}

/** `markdown` with the table's times replaced by `times` (`{ lane: seconds }`) where it has them. */
export function withTimes(markdown, times) {
  const lines = markdown.split('\n');
  for (const { lane, index } of tableRows(markdown)) {
    if (!(lane in times)) continue;
    const cells = lines[index].split('|');
    cells[3] = ` ${rounded(times[lane])} `;
    lines[index] = cells.join('|');
  }
  return lines.join('\n');
}

/** The lanes `.ci/run --list --shard N/2` runs, each with whether it runs beside the others. */
export function shardLanes(shard) {
  const listed = execFileSync('bash', ['.ci/run', '--list', '--shard', `${shard}/2`], { encoding: 'utf8' });
  const beside = new Set(
    [...readFileSync(new URL('../.ci/run', import.meta.url), 'utf8').matchAll(/^lane_beside (\S+)/gm)].map((m) => m[1]),
  );
  return listed
    .split('\n')
    .filter(Boolean)
    .map((lane) => ({ lane, beside: beside.has(lane) }));
}

/**
 * A shard's time by the table, its lanes in the order they run: one after another, except that a lane run
 * beside the others starts when the lanes before it are done and costs only what it outlasts the rest by.
 */
export function shardSeconds(lanes, table) {
  const time = (lane) => {
    const row = table.find((r) => r.lane === lane);
    if (!row) throw new Error(`CONTRIBUTING.md's lane table has no row for the lane ${lane}`);
    return seconds(row.about);
  };
  let serial = 0;
  let besideEnds = 0;
  for (const { lane, beside } of lanes)
    if (beside) besideEnds = Math.max(besideEnds, serial + time(lane));
    else serial += time(lane);
  return Math.max(serial, besideEnds);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--check')) {
    const table = tableRows(readFileSync(CONTRIBUTING, 'utf8'));
    const totals = [1, 2].map((shard) => shardSeconds(shardLanes(shard), table));
    totals.forEach((total, i) => console.log(`.ci/run --shard ${i + 1}/2: ${total} s by the lane table`));
    let failed = false;
    for (const [i, total] of totals.entries())
      if (total > SHARD_GOAL_S) {
        console.error(`.ci/run --shard ${i + 1}/2 is over ${SHARD_GOAL_S / 60} min: move a lane, or make one faster.`);
        failed = true;
      }
    if (Math.abs(totals[0] - totals[1]) > SHARD_SPREAD_S) {
      console.error(
        `The shards are uneven: they must be at most ${SHARD_SPREAD_S / 60} min apart; move a lane in .ci/run (SECOND_SHARD).`,
      );
      failed = true;
    }
    if (failed) process.exit(1);
  } else {
    if (!args.length) {
      console.error('usage: node scripts/lane-times.mjs <.ci/run log>… | --check');
      process.exit(2);
    }
    const times = Object.assign({}, ...args.map((file) => parseSummaries(readFileSync(file, 'utf8'))));
    if (!Object.keys(times).length) {
      console.error(`No "== lane times" summary in ${args.join(', ')}.`);
      process.exit(1);
    }
    writeFileSync(CONTRIBUTING, withTimes(readFileSync(CONTRIBUTING, 'utf8'), times));
    console.log(`CONTRIBUTING.md: the times of ${Object.keys(times).length} lanes written.`);
  }
}

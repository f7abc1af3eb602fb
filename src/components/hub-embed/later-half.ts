// What loads after the first screen, in one chunk (form-opener-loader.ts loads it, on intent or once
// hub-ready is out): the form half of <hub-embed>, and the parts of the other elements that the first
// screen does not need. The <script> builds' half adds the other locales' texts (later-half.script.ts). Each is its own module; this one only gathers them.
export * from './form-opener.js';
export { moveChipFocus } from '../hub-tag-filter/chip-keys.js';
export { DrawSchedule } from '../hub-table-grid/draw-schedule.js';
export { keepPlace } from '../hub-table-grid/keep-place.js';
export { explainFailure } from './explain-failure.js';
export { handOver } from './first-view-handover.js';

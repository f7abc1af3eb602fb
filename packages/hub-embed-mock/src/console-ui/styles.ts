/** The console's look: system fonts, light and dark from the system, visible focus, readable tables. */
import { css } from 'lit';

export const shared = css`
  :host {
    display: block;
    color-scheme: light dark;
    --_fg: light-dark(#1f2328, #e6edf3);
    --_muted: light-dark(#57606a, #9da7b3);
    --_bg: light-dark(#ffffff, #0d1117);
    --_panel: light-dark(#f6f8fa, #161b22);
    --_line: light-dark(#d0d7de, #30363d);
    --_accent: light-dark(#0550ae, #79c0ff);
    --_ok: light-dark(#116329, #56d364);
    --_bad: light-dark(#a40e26, #ff7b72);
    color: var(--_fg);
    font:
      14px/1.5 system-ui,
      'Noto Sans CJK SC',
      sans-serif;
  }
  h1 {
    font-size: 1.35rem;
    margin: 0 0 12px;
  }
  h2 {
    font-size: 1.05rem;
    margin: 20px 0 8px;
  }
  h1:focus {
    outline: none;
  }
  form,
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 8px 12px;
    margin: 8px 0;
  }
  label {
    display: grid;
    gap: 2px;
    color: var(--_muted);
    font-size: 0.85rem;
  }
  input,
  select,
  textarea,
  button {
    font: inherit;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_line);
    border-radius: 6px;
    padding: 5px 8px;
  }
  input,
  select {
    min-width: 12ch;
  }
  textarea {
    min-width: 40ch;
    min-height: 4em;
  }
  button {
    background: var(--_panel);
    padding: 5px 12px;
    cursor: pointer;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_bg);
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    margin: 8px 0;
  }
  caption {
    text-align: start;
    font-weight: 600;
    padding: 4px 0;
  }
  th,
  td {
    text-align: start;
    border-bottom: 1px solid var(--_line);
    padding: 5px 8px;
    vertical-align: top;
  }
  th {
    color: var(--_muted);
    font-weight: 600;
  }
  code,
  pre,
  output.key {
    font-family: ui-monospace, 'Noto Sans Mono CJK SC', monospace;
    font-size: 0.85rem;
  }
  pre {
    background: var(--_panel);
    border: 1px solid var(--_line);
    border-radius: 6px;
    padding: 8px;
    overflow: auto;
    max-height: 24em;
    white-space: pre-wrap;
    word-break: break-all;
  }
  figure {
    margin: 8px 0;
  }
  figcaption {
    font-weight: 600;
    margin-bottom: 4px;
  }
  .status {
    min-height: 1.5em;
    margin: 8px 0;
  }
  .error {
    color: var(--_bad);
  }
  .ok {
    color: var(--_ok);
  }
  .big {
    font-size: 1.4rem;
    font-weight: 600;
  }
  /* Webhook URL fields: a line each, the width of the page, so a whole callback URL shows. */
  fieldset.row {
    flex: 1 1 100%;
    min-width: 0;
  }
  label.url {
    flex: 1 1 100%;
    min-width: 0;
  }
  label.url input {
    width: 100%;
    box-sizing: border-box;
  }
  .note {
    color: var(--_muted);
    font-size: 0.85rem;
  }
  .panel {
    background: var(--_panel);
    border: 1px solid var(--_line);
    border-radius: 8px;
    padding: 8px 12px;
    margin: 8px 0;
  }
`;

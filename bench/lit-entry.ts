// Entry for the "Lit alone" size row: exactly the Lit modules our elements import, nothing of ours.
export * from 'lit';
export * from 'lit/decorators.js';

// Entry for the "Lit alone" size row: the `lit` package our elements import, nothing of ours.
export * from 'lit';

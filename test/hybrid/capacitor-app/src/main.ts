// The session first, then the page of docs/webview-capacitor.md: the test writes it to src/page.ts from the docs.
import './session';
import './page';

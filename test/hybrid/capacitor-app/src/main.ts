// The session first, then the page script of docs/webview-capacitor.md, which the test writes beside this file.
import './session';
import './page';

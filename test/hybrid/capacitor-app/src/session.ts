// The app's sign-in stand-in: the session token the page of docs/webview-capacitor.md sends as a bearer header.
(globalThis as { sessionToken?: () => Promise<string> }).sessionToken = async () =>
  localStorage.getItem('session') ?? '';

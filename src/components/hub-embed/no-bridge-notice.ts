// Part of the form half (it loads at hub-ready): a developer's notice that needs nothing a user waits for,
// so it does not weigh on the bytes before hub-ready.

let told = false;

/**
 * Says once per page that `bridge="auto"` found no bridge to link through: the page loaded a build without
 * one (`hub-embed/define`, dist/hub-embed.iife.js), so the widget runs as a web page.
 */
export function noticeNoBridge(): void {
  if (told) return;
  told = true;
  console.warn(
    'hub-embed: bridge="auto" needs the WebView build (hub-embed/webview or hub-embed-webview.iife.js); running as a web page.',
  );
}

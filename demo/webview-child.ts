// The widget page inside the simulated WebView. Its host is the parent frame, which the demo serves
// from this same origin; that origin is the one allowed host. It is set before the element is
// defined, so the first handshake already goes to the parent.
document.getElementById('widget')!.setAttribute('bridge-origins', location.origin);
await import('../src/webview.js');

export {};

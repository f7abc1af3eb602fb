// Entry of the plain builds (`hub-embed/define`, dist/hub-embed.iife.js): every element registered
// (src/components/register.ts). They carry no bridge: with bridge="auto", the form half says once that the
// bridge is in the WebView build (no-bridge-notice.ts).
export * from './components/register.js';

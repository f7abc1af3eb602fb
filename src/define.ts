// Entry of the plain builds (`hub-embed/define`, dist/hub-embed.iife.js): every element registered
// (src/register.ts), and bridge="auto" saying once that the bridge is in the WebView build.
import './no-bridge.js';

export * from './register.js';

// Entry of `hub-embed/wechat` and of the classic script dist/hub-embed-wechat.js, which a page loads right
// after dist/hub-embed-webview.iife.js: plugs the WeChat mini-program transport into the WebView bridge.
// Every other page (iOS, Android, React Native) does without its bytes. Like every module that acts on
// import, it is listed in package.json "sideEffects".
import { wechat } from '../bridge/wechat.js';
import { addTransport } from '../bridge/wechat-imports.js';

addTransport('wechat', wechat);

// The web-view page holding the widget. The widget page opens forms by navigateTo('/pages/hub-form/index')
// when its marker allows that page (docs/webview.md, "WeChat mini-program"); what else it did arrives
// in batches at bindmessage.
const { readHubEvents } = require('../../hub-embed-events.js');

// Your widget page: <hub-embed bridge="auto"> with the WebView bundle, and before it
// window.__HUB_EMBED_BRIDGE__ = {transport: 'wechat', wechatFormPage: '/pages/hub-form/index'}.
const WIDGET_PAGE = 'https://widget.example.com/embed';

Page({
  data: { src: WIDGET_PAGE },

  onHubMessage(e) {
    for (const { method, params } of readHubEvents(e.detail.data)) {
      if (method === 'widget.error') console.warn('hub-embed:', params && params.kind, params && params.message);
      else if (method === 'table.selected') this.lastTable = params;
      // widget.ready, form.opened, form.closed, form.message: record or report them as your app needs.
    }
  },
});

// The web-view page holding the widget. It signs the user in first: wx.login's code goes to your server,
// which answers a one-time ticket (server/sign-in.js); the ticket rides in the web-view src and is
// redeemed once by the server that serves the widget page. The widget page opens forms by
// navigateTo('/pages/hub-form/index') when its marker allows that page (docs/webview-wechat.md); what
// else it did arrives in batches at bindmessage.
const { readHubEvents } = require('../../hub-embed-events.js');

// Your widget page: <hub-embed bridge="auto"> with the WebView bundle, and before it
// window.__HUB_EMBED_BRIDGE__ = {transport: 'wechat', wechatFormPage: '/pages/hub-form/index'}.
const WIDGET_PAGE = 'https://widget.example.com/embed';
// Your server's route that turns a wx.login code into a ticket (a request domain of the mini-program).
const TICKET_ROUTE = 'https://widget.example.com/api/wechat/web-view-ticket';
// Where the user's last selection in the widget (tags.changed) is kept between visits.
const TAGS_KEY = 'hubEmbedTags';

/** `&tags=a&tags=b` for the widget page, which selects them before it loads anything (widget-page.html). */
function tagsQuery(tags) {
  return Array.isArray(tags) ? tags.map((tag) => `&tags=${encodeURIComponent(tag)}`).join('') : '';
}

// #region wechat-hub-page
Page({
  data: { src: '', failed: false },

  onLoad() {
    const failed = () => this.setData({ failed: true });
    wx.login({
      success: ({ code }) =>
        wx.request({
          url: TICKET_ROUTE,
          method: 'POST',
          data: { code },
          success: ({ statusCode, data }) => {
            if (statusCode !== 200 || !data || typeof data.ticket !== 'string') return failed();
            const ticket = encodeURIComponent(data.ticket);
            this.setData({ src: `${WIDGET_PAGE}?ticket=${ticket}${tagsQuery(wx.getStorageSync(TAGS_KEY))}` });
          },
          fail: failed,
        }),
      fail: failed,
    });
  },

  onHubMessage(e) {
    for (const { method, params } of readHubEvents(e.detail.data)) {
      if (method === 'widget.error') console.warn('hub-embed:', params && params.kind, params && params.message);
      else if (method === 'table.selected') this.lastTable = params;
      // The selection the user left the widget with (the last one of the batch): the next visit opens with it.
      else if (method === 'tags.changed') wx.setStorageSync(TAGS_KEY, params.tags);
      // widget.ready, form.opened, form.closed, form.message: record or report them as your app needs.
    }
  },
});
// #endregion wechat-hub-page

// The form page the widget navigates to: {form_url}/<short_code>?token=<token>, in a web-view of its own.
// The form site's domain must be a business domain too.
const { formUrlFrom, readHubEvents } = require('../../hub-embed-events.js');

// Your {form_url}: only links on it are loaded.
const FORM_SITE = 'https://forms.example.com';

Page({
  data: { src: '' },

  onLoad(query) {
    const src = formUrlFrom(query.url, FORM_SITE);
    if (src) this.setData({ src, shortCode: query.shortCode || '' });
  },

  onFormMessage(e) {
    // The form page's own messages, batched by WeChat like the widget's.
    this.formEvents = readHubEvents(e.detail.data);
  },
});

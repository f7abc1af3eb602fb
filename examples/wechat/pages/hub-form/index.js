// The form page the widget navigates to: {form_url}/<short_code>?token=<token>, in a web-view of its own.
// The form site's domain must be a business domain too (README.md). The form site posts no messages to
// the mini-program (the service's spec gives it none), so this page listens for none: an outcome, such as
// a payment, reaches your server from the service (billing_deduct), not this page.
const { formUrlFrom } = require('../../hub-embed-events.js');

// Your {form_url}: only links on it are loaded.
const FORM_SITE = 'https://forms.example.com';

Page({
  data: { src: '' },

  onLoad(query) {
    const src = formUrlFrom(query.url, FORM_SITE);
    if (src) this.setData({ src, shortCode: query.shortCode || '' });
  },
});

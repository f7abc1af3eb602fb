// #region registration
// plugins/hub-embed.client.ts: in the browser only (`.client`); the server renders the tags as written
import 'hub-embed/define';

export default defineNuxtPlugin(() => {});
// #endregion registration

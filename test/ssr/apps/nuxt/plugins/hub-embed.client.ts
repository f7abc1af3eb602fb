// The registration, in the browser only (`.client`): the server renders the tags as they are written.
import 'hub-embed/define';

export default defineNuxtPlugin(() => {});

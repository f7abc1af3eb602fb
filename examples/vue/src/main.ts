import { createApp } from 'vue';
// Registers every element. `hub-embed/vue` (imported for its types) has no side effects.
import 'hub-embed/define';
import 'hub-embed/vue';
import App from './App.vue';

createApp(App).mount('#app');

// @ts-check
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { isCustomElement } from 'hub-embed/vue';

// isCustomElement: Vue leaves <hub-embed> and the other tags to the browser instead of looking for a
// Vue component of that name.
export default defineConfig({ plugins: [vue({ template: { compilerOptions: { isCustomElement } } })] });

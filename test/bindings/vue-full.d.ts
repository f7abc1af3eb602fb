// Vue's full browser build (runtime + template compiler, its feature flags set for a page without a bundler)
// has the same API as 'vue', whose types it lacks.
declare module 'vue/dist/vue.esm-browser.js' {
  export * from 'vue';
}

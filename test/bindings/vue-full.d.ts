// Vue's full build (runtime + template compiler) has the same API as 'vue', whose types it lacks.
declare module 'vue/dist/vue.esm-bundler.js' {
  export * from 'vue';
}

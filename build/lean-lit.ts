import type { Plugin } from 'vite';

/**
 * Why: the <script> bundles carry their own Lit, so they carry all of it, also what no element of theirs
 * uses and what no browser they support needs. This drops that code from Lit's production modules as the
 * bundles read them: decorator support (the elements declare `static properties`, src/components/base.ts),
 * `useDefault`, the `state` and `noAccessor` options, JSON attribute converters (no property is an Object
 * or Array attribute), Symbol-keyed properties, an element's own accessors around a reactive property,
 * reactive controllers, `static shadowRootOptions` (every shadow root is open), svg`` and mathml``
 * templates, templates compiled ahead of time, raw-text elements (`<style>`, `<textarea>`, `<title>`,
 * `<script>`) in a template, bindings inside an HTML comment, values in a css`` literal, Boolean
 * attributes reflected, directives (no template of ours uses one: not `classMap`, `repeat`, `ref` nor
 * any other), with element bindings, which only a directive gives a meaning, and the connection state
 * that only async directives read, iterables other than arrays in a child binding, nested or repeated
 * stylesheets in `static styles`, the `creationScope` and `renderBefore` render options, the hooks of Lit's
 * polyfill-support and hydrate-support scripts (ShadyDOM's node wrapper among them), Closure Compiler's
 * property renaming, the mark that server-side rendering reads and the version counters, and the `<style>`
 * fallback for browsers without constructable stylesheets (every browser of docs/engines.md has them). The ES builds leave Lit to the app's bundler, with the app's copy.
 *
 * Each cut names the exact text it removes, and the build fails when Lit's text changes, so an update of
 * Lit is read again rather than cut blindly. The same transform fails the build when a module of ours (of
 * either half: the form half renders with the main file's Lit) starts to use what a cut removed.
 */
const CUTS: Record<string, [string, string][]> = {
  '/@lit/reactive-element/reactive-element.js': [
    // Decorators: their metadata and initializers.
    ['Symbol.metadata??=Symbol("metadata"),a.litPropertyMetadata??=new WeakMap;', ''],
    ['static addInitializer(t){this._$Ei(),(this.l??=[]).push(t)}', ''],
    ['void 0!==t.l&&(this.l=[...t.l]),', ''],
    [',this.constructor.l?.forEach(t=>t(this))', ''],
    [
      'const t=this[Symbol.metadata];if(null!==t){const s=litPropertyMetadata.get(t);if(void 0!==s)for(const[t,i]of s)this.elementProperties.set(t,i)}',
      '',
    ],
    // Symbol-keyed properties.
    ['s=[...r(t),...o(t)]', 's=r(t)'],
    ['getOwnPropertySymbols:o,', ''],
    // JSON attributes, and Boolean ones reflected (no Boolean property reflects): a reflected value is
    // written as it is.
    ['switch(s){case Boolean:t=t?l:null;break;case Object:case Array:t=null==t?t:JSON.stringify(t)}', ''],
    ['case Object:case Array:try{i=JSON.parse(t)}catch(t){i=null}', ''],
    // useDefault: the value an attribute's removal goes back to.
    ['reflect:!1,useDefault:!1,', 'reflect:!1,'],
    ['||i.useDefault&&i.reflect&&h===this._$Ej?.get(t)&&!this.hasAttribute(r._$Eu(t,i))', ''],
    [
      'C(t,s,{useDefault:i,reflect:e,wrapped:h},r){i&&!(this._$Ej??=new Map).has(t)&&(this._$Ej.set(t,r??s??this[t]),!0!==h||void 0!==r)||(this._$AL.has(t)||(this.hasUpdated||i||(s=void 0),this._$AL.set(t,s)),',
      'C(t,s,{reflect:e}){(this._$AL.has(t)||(this.hasUpdated||(s=void 0),this._$AL.set(t,s)),',
    ],
    ['this[e]=r??this._$Ej?.get(e)??r', 'this[e]=r'],
    // Accessors of our own around a reactive property (`wrapped`): no element declares one.
    ['this.prototype.hasOwnProperty(t)&&((s=Object.create(s)).wrapped=!0),', ''],
    [
      'const t=this.constructor.elementProperties;if(t.size>0)for(const[s,i]of t){const{wrapped:t}=i,e=this[s];!0!==t||this._$AL.has(s)||void 0===e||this.C(s,void 0,i,e)}',
      '',
    ],
    // Reactive controllers: no element adds one (<hub-embed> calls its loader's lifecycle methods itself).
    [
      'addController(t){(this._$EO??=new Set).add(t),void 0!==this.renderRoot&&this.isConnected&&t.hostConnected?.()}removeController(t){this._$EO?.delete(t)}',
      '',
    ],
    [',this._$EO?.forEach(t=>t.hostConnected?.())', ''],
    ['disconnectedCallback(){this._$EO?.forEach(t=>t.hostDisconnected?.())}', 'disconnectedCallback(){}'],
    [',this._$EO?.forEach(t=>t.hostUpdate?.())', ''],
    ['this._$EO?.forEach(t=>t.hostUpdated?.()),', ''],
    // The `state` and `noAccessor` options (internal state is `{ attribute: false }`, src/components/base.ts),
    // and a new value passed in by a decorator's setter.
    ['s.state&&(s.attribute=!1),', ''],
    [
      ',!s.noAccessor){const i=Symbol(),h=this.getPropertyDescriptor(t,i,s);void 0!==h&&e(this.prototype,t,h)}',
      ');{const i=Symbol(),h=this.getPropertyDescriptor(t,i,s);void 0!==h&&e(this.prototype,t,h)}',
    ],
    [
      'requestUpdate(t,s,i,e=!1,h){if(void 0!==t){const r=this.constructor;if(!1===e&&(h=this[t]),',
      'requestUpdate(t,s,i){if(void 0!==t){const r=this.constructor,h=this[t];if(',
    ],
    // The accessor of a reactive property wraps none of our own (see `wrapped` above): it reads and writes the
    // value under its symbol.
    [
      'const{get:e,set:r}=h(this.prototype,t)??{get(){return this[s]},set(t){this[s]=t}};return{get:e,set(s){const h=e?.call(this);r?.call(this,s),this.requestUpdate(t,h,i)},',
      'return{get(){return this[s]},set(e){const h=this[s];this[s]=e,this.requestUpdate(t,h,i)},',
    ],
    // The prototype's enableUpdating(), which every instance replaces with its own before it can be called.
    ['enableUpdating(t){}', ''],
    // shadowRootOptions: always open.
    ['this.attachShadow(this.constructor.shadowRootOptions)', 'this.attachShadow({mode:"open"})'],
    ['y.shadowRootOptions={mode:"open"},', ''],
    // Trusted Types' empty script, the value of a Boolean attribute reflected (cut above).
    ['c=a.trustedTypes,l=c?c.emptyScript:"",', ''],
    // Closure Compiler's property renaming, which Lit's published build leaves as a function that gives
    // back its argument.
    [',d=(t,s)=>t,', ','],
    ['this.hasOwnProperty(d("elementProperties"))', 'this.hasOwnProperty("elementProperties")'],
    ['this.hasOwnProperty(d("finalized"))', 'this.hasOwnProperty("finalized")'],
    ['this.hasOwnProperty(d("properties"))', 'this.hasOwnProperty("properties")'],
    ['y[d("elementProperties")]=new Map,y[d("finalized")]=new Map', 'y.elementProperties=new Map,y.finalized=new Map'],
    // Styles flattened and made unique: each element's `static styles` is a flat array of distinct css``
    // results (see the check below), which are its element styles as they are.
    [
      'static finalizeStyles(s){const i=[];if(Array.isArray(s)){const e=new Set(s.flat(1/0).reverse());for(const s of e)i.unshift(t(s))}else void 0!==s&&i.push(t(s));return i}',
      'static finalizeStyles(s){return s??[]}',
    ],
    // A property's attribute name from its name, which is a string (Symbol-keyed properties are cut above).
    ['"string"==typeof t?t.toLowerCase():void 0', 't.toLowerCase()'],
    // polyfill-support and the version counter.
    ['p=a.reactiveElementPolyfillSupport,', ''],
    [',p?.({ReactiveElement:y}),(a.reactiveElementVersions??=[]).push("2.1.2")', ''],
  ],
  '/lit-element/lit-element.js': [
    // Async directives' connection state: no template of ours uses an async directive.
    ['this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),', ''],
    [
      'connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}',
      '',
    ],
    [',s.litElementHydrateSupport?.({LitElement:i});const o=s.litElementPolyfillSupport;o?.({LitElement:i});', ';'],
    [';(s.litElementVersions??=[]).push("4.2.2");', ';'],
    // The root part, kept for the async directives' connection state only (render() keeps it on the
    // render root as well), and the mark that server-side rendering reads.
    [',this._$Do=void 0', ''],
    ['this._$Do=e(r,this.renderRoot,this.renderOptions)', 'e(r,this.renderRoot,this.renderOptions)'],
    ['i._$litElement$=!0,', ''],
    // renderBefore: every render root of ours is a new shadow root, empty (no <style> fallback above).
    [
      'createRenderRoot(){const t=super.createRenderRoot();return this.renderOptions.renderBefore??=t.firstChild,t}',
      '',
    ],
  ],
  '/lit-html/lit-html.js': [
    // svg`` and mathml``.
    ['l=2===i?"<svg>":3===i?"<math>":""', 'l=""'],
    ['+(2===i?"</svg>":3===i?"</math>":"")', ''],
    [
      'if(this.el=S.createElement(f,e),P.currentNode=this.el.content,2===i||3===i){const t=this.el.content.firstChild;t.replaceWith(...t.childNodes)}',
      'this.el=S.createElement(f,e),P.currentNode=this.el.content;',
    ],
    // <script>, <style>, <textarea> and <title>, which no template of ours holds: the bindings inside them,
    // and the parsing that reads their text as text, not markup, to their end tag.
    [
      'if(y.test(r.tagName)){const t=r.textContent.split(o),i=t.length-1;if(i>0){r.textContent=s?s.emptyScript:"";for(let s=0;s<i;s++)r.append(t[s],c()),P.nextNode(),d.push({type:2,index:++l});r.append(t[i],c())}}',
      '',
    ],
    ['y=/^(?:script|style|textarea|title)$/i,', ''],
    ['(y.test(u[2])&&(n=RegExp("</"+u[2],"g")),c=p)', 'c=p'],
    // Bindings inside an HTML comment (`<!-- ${x} -->`), which no template of ours holds.
    ['else{let t=-1;for(;-1!==(t=r.data.indexOf(o,t+1));)d.push({type:7,index:l}),t+=o.length-1}', ''],
    // Async directives' connection state (see lit-element.js above): the parts' and the template instances'
    // `_$AU` (isConnected) and the hooks an async directive installs (`_$AO`, `_$AP`).
    ['setConnected(t){void 0===this._$AM&&(this._$Cv=t,this._$AP?.(t))}', ''],
    ['get _$AU(){return this._$AM?._$AU??this._$Cv}', ''],
    [',this._$Cv=e?.isConnected??!0', ''],
    ['get _$AU(){return this._$AM._$AU}', ''],
    ['get _$AU(){return this._$AM._$AU}', ''],
    ['get _$AU(){return this._$AM._$AU}', ''],
    ['for(this._$AP?.(!1,!0,s);', 'for(;'],
    ['h?._$AO?.(!1),', ''],
    // Templates compiled ahead of time (`_$litType$` an object): every template of ours is an html`` literal.
    [
      '"number"==typeof s?this._$AC(t):(void 0===s.el&&(s.el=S.createElement(V(s.h,s.h[0]),this.options)),s)',
      'this._$AC(t)',
    ],
    // Directives: no module of ours imports one (see the check below), so no value is one, and resolving
    // a value (`M`, resolveDirective) gives it back as it is. Without them an element binding (`<p ${x}>`,
    // an ElementPart) does nothing, and the parts' `parentNode`, `startNode`, `endNode` and `tagName`, and the
    // `_$AN` of their disconnectable children, are read by no one.
    [
      'function M(t,i,s=t,e){if(i===E)return i;let h=void 0!==e?s._$Co?.[e]:s._$Cl;const o=a(i)?void 0:i._$litDirective$;return h?.constructor!==o&&(void 0===o?h=void 0:(h=new o(t),h._$AT(t,s,e)),void 0!==e?(s._$Co??=[])[e]=h:s._$Cl=h),void 0!==h&&(i=M(t,h._$AS(t,i.values),h,e)),i}',
      '',
    ],
    ['_$AI(t,i=this){t=M(this,t,i),a(t)?', '_$AI(t){a(t)?'],
    ['if(void 0===h)t=M(this,t,i,0),o=', 'if(void 0===h)o='],
    ['r=M(this,e[s+n],i,n),r===E', 'r=e[s+n],r===E'],
    ['_$AI(t,i=this){if((t=M(this,t,i,0)??A)===E)return;', '_$AI(t){if((t??=A)===E)return;'],
    [
      ':1===r.type?i=new r.ctor(h,r.name,r.strings,this,t):6===r.type&&(i=new Z(h,this,t))',
      ':1===r.type&&(i=new r.ctor(h,r.name,r.strings,this,t))',
    ],
    [
      'class Z{constructor(t,i,s){this.element=t,this.type=6,this._$AN=void 0,this._$AM=i,this.options=s}_$AI(t){M(this,t)}}',
      '',
    ],
    ['get parentNode(){return this._$AM.parentNode}', ''],
    [
      'get parentNode(){let t=this._$AA.parentNode;const i=this._$AM;return void 0!==i&&11===t?.nodeType&&(t=i.parentNode),t}get startNode(){return this._$AA}get endNode(){return this._$AB}',
      '',
    ],
    ['get tagName(){return this.element.tagName}', ''],
    ['this._$AN=void 0,', ''],
    ['this._$AN=void 0,', ''],
    ['this._$AN=void 0,', ''],
    ['_$AI(t,i=this,s,e)', '_$AI(t,i,s,e)'],
    // Lit's private exports for its directive helpers and SSR, which read the two cut above.
    ['V:M,', ''],
    [',F:Z}', '}'],
    // Iterables other than arrays in a child binding (a Set, a Map's values, a generator): every list a
    // template of ours renders is an array.
    ['d=t=>u(t)||"function"==typeof t?.[Symbol.iterator]', 'd=u'],
    // Element bindings (`<p ${x}>`), which only a directive gives a meaning (see above): not parsed.
    ['else t.startsWith(o)&&(d.push({type:6,index:l}),r.removeAttribute(t))', ''],
    // renderBefore (see lit-element.js above): a render() of ours renders into its container.
    ['const e=s?.renderBefore??i;', 'const e=i;'],
    ['const t=s?.renderBefore??null;', 'const t=null;'],
    // ShadyDOM's node wrapper (the polyfill-support script's), otherwise a function that gives back its node.
    ['i=t=>t,', ''],
    ['const s=i(t).nextSibling;i(t).remove()', 'const s=t.nextSibling;t.remove()'],
    // creationScope (scoped custom element registries).
    ['(t?.creationScope??l).importNode(i,!0)', 'l.importNode(i,!0)'],
    // polyfill-support and the version counter.
    [',B=t.litHtmlPolyfillSupport;B?.(S,k),(t.litHtmlVersions??=[]).push("3.3.3");', ';'],
  ],
  '/@lit/reactive-element/css-tag.js': [
    // Values in a css`` literal: every stylesheet of ours is one literal, and the build minifies it as such.
    [
      'i=(t,...e)=>{const o=1===t.length?t[0]:e.reduce((e,s,o)=>e+(t=>{if(!0===t._$cssResult$)return t.cssText;if("number"==typeof t)return t;throw Error("Value passed to \'css\' function must be a \'css\' function result: "+t+". Use \'unsafeCSS\' to pass non-literal values, but take care to ensure page security.")})(s)+t[o+1],t[0]);return new n(o,t,s)}',
      'i=t=>new n(t[0],t,s)',
    ],
    // Constructable stylesheets everywhere: no <style> fallback, no conversion of a stylesheet to text.
    [
      'e=t.ShadowRoot&&(void 0===t.ShadyCSS||t.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype',
      'e=!0',
    ],
    [
      'S=(s,o)=>{if(e)s.adoptedStyleSheets=o.map(t=>t instanceof CSSStyleSheet?t:t.styleSheet);else for(const e of o){const o=document.createElement("style"),n=t.litNonce;void 0!==n&&o.setAttribute("nonce",n),o.textContent=e.cssText,s.appendChild(o)}}',
      'S=(s,o)=>{s.adoptedStyleSheets=o.map(t=>t instanceof CSSStyleSheet?t:t.styleSheet)}',
    ],
    [
      'c=e?t=>t:t=>t instanceof CSSStyleSheet?(t=>{let e="";for(const s of t.cssRules)e+=s.cssText;return r(e)})(t):t',
      'c=t=>t',
    ],
    ['if(e&&void 0===t)', 'if(void 0===t)'],
  ],
};

/** What a cut removed: a module of ours that imports one of these from Lit fails the build. */
const CUT_EXPORTS = ['svg', 'mathml', 'unsafeCSS', 'getCompatibleStyle', 'supportsAdoptingStyleSheets'];

export const leanLit: Plugin = {
  name: 'hub-embed-lean-lit',
  transform(source, id) {
    if (/\/src\/.*\.ts$/.test(id)) {
      for (const name of CUT_EXPORTS) {
        if (new RegExp(`(import|export)[^;]*\\b${name}\\b[^;]*from '(lit|lit-html|@lit/reactive-element)`).test(source))
          throw new Error(`${id} imports ${name} from Lit, which build/lean-lit.ts cuts from the <script> bundles.`);
      }
      if (/from '(lit|lit-html)\/(async-directive|directive|directive-helpers|directives\/[\w-]+)\.js'/.test(source))
        throw new Error(`${id} uses a directive, which build/lean-lit.ts cuts from the <script> bundles.`);
      const properties = /static (?:override )?properties\b[^=]*= \{([^;]*)\};/.exec(source)?.[1] ?? '';
      for (const [, name] of source.matchAll(/^\s*(?:get|set) (\w+)\(/gm)) {
        if (new RegExp(`\\b${name}:`).test(properties))
          throw new Error(
            `${id} declares an accessor of its own for the reactive property ${name}, which build/lean-lit.ts cuts from the <script> bundles.`,
          );
      }
      if (/\{[^{}]*\b(state|noAccessor): true/.test(source))
        throw new Error(
          `${id} declares a property with state or noAccessor, which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      if (/\.addController\(/.test(source))
        throw new Error(`${id} adds a reactive controller, which build/lean-lit.ts cuts from the <script> bundles.`);
      if (/html`[^`]*<(script|style|textarea|title)[\s>/]/i.test(source))
        throw new Error(
          `${id} has a raw-text element (<script>, <style>, <textarea>, <title>) in a template, which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      if (/<!--((?!-->)[^`])*\$\{/.test(source))
        throw new Error(
          `${id} binds a value inside an HTML comment, which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      if (/css`[^`]*\$\{/.test(source))
        throw new Error(
          `${id} puts a value in a css\`\` literal, which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      for (const [, given] of source.matchAll(/static (?:override )?styles\b[^=]*=([^;]*);/g)) {
        // Names between commas; a trailing comma allowed (a multi-line array, as Prettier writes it).
        const items = /^\s*\[([\w\s,]*?),?\s*\]\s*$/
          .exec(given!)?.[1]
          ?.split(',')
          .map((item) => item.trim());
        if (!items || items.some((item) => !item) || new Set(items).size !== items.length)
          throw new Error(
            `${id} gives static styles that are not a flat array of distinct stylesheets, which build/lean-lit.ts cuts from the <script> bundles.`,
          );
      }
      if (/\brenderBefore\b/.test(source))
        throw new Error(
          `${id} renders before a node (renderBefore), which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      if (
        /html`[^`]*\$\{[^}]*(\.(values|keys|entries)\(\)|\bnew (Set|Map)\()/.test(
          source.replace(/\[\.\.\.[^\]]*\]/g, '[]'),
        )
      )
        throw new Error(
          `${id} renders an iterable that is not an array in a template, which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      if (/html`[^`]*<[a-z][\w-]*(\s+[^\s<>`=]+(=("[^"`]*"|\$\{[^}]*\}|[^\s<>`"]+))?)*\s+\$\{/.test(source))
        throw new Error(
          `${id} binds a value to an element (<p \${x}>), which build/lean-lit.ts cuts from the <script> bundles.`,
        );
      if (/\{[^{}]*\btype: Boolean\b[^{}]*\breflect: true|\{[^{}]*\breflect: true[^{}]*\btype: Boolean\b/.test(source))
        throw new Error(`${id} reflects a Boolean property, which build/lean-lit.ts cuts from the <script> bundles.`);
      return null;
    }
    const module = Object.keys(CUTS).find((ending) => id.endsWith(ending));
    if (!module) return null;
    let code = source;
    for (const [cut, kept] of CUTS[module]!) {
      if (!code.includes(cut))
        throw new Error(`Lit's ${module} no longer holds ${cut}; read it again in build/lean-lit.ts.`);
      code = code.replace(cut, kept);
    }
    return { code, map: null };
  },
};

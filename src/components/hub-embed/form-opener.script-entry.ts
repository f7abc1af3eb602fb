// Entry of the <script> builds' form chunk (dist/hub-embed.form.js and hub-embed-webview.form.js): runs the form half and hands it to
// the loader that added this script (form-opener-loader.script.ts).
import * as formOpener from './form-opener.js';
import { formOpenerLoaded } from './form-opener-loader.script.js';

formOpenerLoaded(formOpener);

// #region registration
// main.ts, the browser's entry (main.server.ts, the server's, leaves the tags as they are written)
import 'hub-embed/define';
// #endregion registration
import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app/app';
import { appConfig } from './app/app.config';

bootstrapApplication(App, appConfig).catch((error) => console.error(error));

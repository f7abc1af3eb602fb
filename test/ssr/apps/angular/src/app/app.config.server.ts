import { type ApplicationConfig, mergeApplicationConfig } from '@angular/core';
import { RenderMode, provideServerRendering, withRoutes } from '@angular/ssr';
import { appConfig } from './app.config';

// Rendered on each request, none at build time: the service's addresses come from the server's environment.
const serverConfig: ApplicationConfig = {
  providers: [provideServerRendering(withRoutes([{ path: '**', renderMode: RenderMode.Server }]))],
};

export const config = mergeApplicationConfig(appConfig, serverConfig);

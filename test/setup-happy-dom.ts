// happy-dom does not load iframe pages: each form frame a test opens fails to load there, and happy-dom
// logs that with a stack trace on the console it was given (Node's own; Vitest gives tests another). It
// is expected in the happy-dom projects, whose tests never rely on a frame's page (the browser project loads
// real ones), so exactly that line stays out of the output; every other console.error still shows.
import nodeConsole from 'node:console';

const logError = nodeConsole.error.bind(nodeConsole);
nodeConsole.error = (...args: unknown[]) => {
  const [first] = args;
  const framePage =
    first instanceof Error &&
    first.name === 'NotSupportedError' &&
    first.message.includes('Iframe page loading is disabled');
  if (!framePage) logError(...args);
};

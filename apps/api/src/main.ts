// First: V8 flags that must hold before the service allocates anything.
import './v8-flags';
// Second: tracing, when configured, which must start before http, pg and pino are first loaded.
import { stopTracing } from './tracing';
import { Logger } from 'nestjs-pino';
import { createApp } from './app/configure-app';
import { ConfigError, loadConfig } from './app/config/app-config';
import { stopOnSignals } from './stop-on-signals';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const app = await createApp(config);
  if (config.developmentKey) {
    // Printed once, here only: the key lives as long as this process and is never logged.
    process.stderr.write(
      `No API_KEYS configured: this process accepts the development key\n\n    ${config.developmentKey}\n\n` +
        `Send it as "Authorization: Bearer <key>". Set API_KEYS to choose your own keys.\n`,
    );
  }
  await app.listen({ port: config.port, host: config.host });

  stopOnSignals({
    log: (message) => app.get(Logger).log(message),
    close: async () => {
      await app.close();
      // The last requests' spans, still buffered, are sent before exiting.
      await stopTracing();
    },
    exit: (code) => process.exit(code),
  });
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`The service could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

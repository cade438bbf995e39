// First: V8 flags that must hold before the service allocates anything.
import './v8-flags';
// Second: tracing, when configured, which must start before http, pg and pino are first loaded.
import { stopTracing } from './tracing';
import { Logger } from 'nestjs-pino';
import { createApp } from './app/configure-app';
import { type AppConfig, ConfigError, loadConfig } from './app/config/app-config';
import { developmentKeyFile, developmentKeyNotice, keepDevelopmentKey } from './app/config/development-key';
import { stopOnSignals } from './stop-on-signals';

async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const kept = config.developmentKey ? keepDevelopmentKey(developmentKeyFile(config.database), config.developmentKey) : undefined;
  if (kept) config = { ...config, developmentKey: kept.key, apiKeys: [kept.key] };
  const app = await createApp(config);
  // Printed here only, never logged.
  if (kept) process.stderr.write(developmentKeyNotice(kept));
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

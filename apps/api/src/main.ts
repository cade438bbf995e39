// First: V8 flags that must hold before the service allocates anything.
import './v8-flags';
// Second: tracing, when configured, which must start before http, pg and pino are first loaded.
import { stopTracing } from './tracing';
import { Logger } from 'nestjs-pino';
import { createApp } from './app/configure-app';
import { ConfigError, loadConfig } from './app/config/app-config';

/** A stop that takes longer than this is cut short: orchestrators kill at 10 s. */
const SHUTDOWN_DEADLINE_MS = 9_000;

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

  // Nest's enableShutdownHooks re-raises the signal after closing, so the exit status would say "killed";
  // operators and process managers expect a clean stop to exit 0.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // A second signal is common (Ctrl-C reaches npm and the service, and npm forwards it): without a listener,
    // Node would let it kill the process mid-stop.
    if (stopping) return;
    stopping = true;
    const deadline = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    app.get(Logger).log(`${signal} received: finishing in-flight requests, then stopping`);
    await app.close();
    // The last requests' spans, still buffered, are sent before exiting.
    await stopTracing();
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`The service could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { createApp } from './app/configure-app';
import { ConfigError, loadConfig } from './app/config/app-config';

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
}

void bootstrap();

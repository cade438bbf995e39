import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/app-config';

/** JSON lines on stdout. Credentials are censored wherever they would appear, as a second line of defence. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'petstore' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

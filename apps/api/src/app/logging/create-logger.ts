import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/app-config';
import { LineBatches } from './line-batches';

/**
 * Where log lines go by default: stdout, written in batches of about 4 KiB (at least once a second, and on exit)
 * rather than a write(2) per line, which under load cost more than building the lines. A terminal gets each line
 * as it is logged.
 */
function stdout(): DestinationStream {
  if (process.stdout.isTTY) return pino.destination({ dest: 1, sync: true });
  return new LineBatches(pino.destination({ dest: 1, sync: false }));
}

let stampedAt = Number.NaN;
let stamp = '';

/** pino's ISO `time`, formatted at most once per millisecond: under load many lines share one. */
function isoTime(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/** JSON lines on stdout. Credentials are censored wherever they would appear, as a second line of defence. */
export function createLogger(level: LogLevel, destination: DestinationStream = stdout()): Logger {
  return pino(
    {
      level,
      base: { service: 'petstore' },
      timestamp: isoTime,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

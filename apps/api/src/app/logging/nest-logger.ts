import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

// Nest's start-up narration, a line per module and per route: worth having when start-up itself is in question.
const START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Nest's own logs through pino, its start-up narration at `debug`, so that at `info` start-up says what an operator
 * needs (the database, where the service answers) rather than thirty lines of it.
 */
@Injectable()
export class NestLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) super.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

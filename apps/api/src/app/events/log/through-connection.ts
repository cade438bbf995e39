import type { DatabaseConnection } from '../../database/database-connection';
import type { PetEventLog } from './pet-event-log';

/**
 * The log as the streams read it: through the connection, so that a read answers 503 at once while the database
 * cannot serve, and at the operation's deadline at the latest, as every request's work does.
 */
export const throughConnection = (log: PetEventLog, database: DatabaseConnection): PetEventLog => ({
  readAfter: (position, limit) => database.run(() => log.readAfter(position, limit)),
  bounds: () => database.run(() => log.bounds()),
  purge: (before) => database.run(() => log.purge(before)),
});

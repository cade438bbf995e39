import { apiArea } from './area.mjs';

// The event stream on SQLite: the log and its purge, the feed, the streams, their caps and the route. PostgreSQL's log,
// with its sequencer, is the `postgres` area's; the OpenAPI decorators are judged whole by the committed document.
export default apiArea('events', {
  mutate: ['src/app/events/**/*.ts', '!src/app/events/**/postgres-*.ts', '!src/app/events/**/*-api-docs.decorator.ts'],
  specs: ['src/app/events/**/*.spec.ts', 'test/pet-event-log.spec.ts', 'test/event-stream.spec.ts'],
});

import { apiArea } from './area.mjs';

// The webhook outbox on SQLite and what drives it: the dispatcher's claims and records, the purge, the depth, the events.
export default apiArea('webhook-outbox', {
  mutate: [
    'src/app/webhooks/outbox/webhook-outbox.ts',
    'src/app/webhooks/outbox/sqlite-webhook-outbox.ts',
    'src/app/webhooks/webhook-dispatcher.ts',
    'src/app/webhooks/webhook-outbox-purge.ts',
    'src/app/webhooks/webhook-outbox-depth.ts',
    'src/app/webhooks/webhook-event.ts',
  ],
  specs: ['src/app/webhooks/**/*.spec.ts', 'test/webhooks.spec.ts', 'test/webhook-endpoints.spec.ts'],
});

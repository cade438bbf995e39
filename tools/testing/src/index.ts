export { freePort } from './free-port';
export { NPM_ENV } from './npm-env';
export { percentile } from './percentile';
export { type Exit, killNode, type NodeProcess, type SpawnOptions, spawnNode, stopNode, waitFor200 } from './node-process';
export {
  SERVICE_MAIN,
  type ServiceSpawnOptions,
  serviceBuild,
  spawnService,
  START_ENV,
  START_NODE_OPTIONS,
  type StartedService,
  startService,
  waitUntilLive,
  waitUntilReady,
} from './built-service';
export { CLUSTER_DATABASE, type Member, type PatroniCluster, patroniRuns, startPatroniCluster, storedPets } from './patroni';
export { PGBOUNCER_INI, pgbouncerInstalled, type RunningPgBouncer, startPgBouncer } from './pgbouncer';
export { portOpen, waitForPort } from './port-open';
export { startRedis } from './redis-server';
export { localPortsTo } from './tcp-connections';
export { blackHole, iptablesUsable } from './black-hole';
export { type SilenceMode, TcpRelay } from './tcp-relay';
export { registerWebhookEndpoint } from './webhook-endpoint';
export {
  type ReceivedWebhook,
  startWebhookReceiver,
  WEBHOOK_RECEIVER_ENV,
  type WebhookCounts,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver';
export { CHROMIUM, chromiumRuns, launchChromium } from './chromium';
export { authorizeInSwaggerUi } from './swagger-ui';
export { createPostgresDatabase, DEFAULT_POSTGRES_URL, type PostgresDatabase, withClient } from './postgres-database';
export { readTextTable } from './text-table';
export { builtRelease, type ReleasedProject } from './released-build';
export {
  lastReleaseCommit,
  type Release,
  RELEASES,
  releaseBefore,
  releasedVersions,
  releaseHistory,
  releaseOf,
  releasesByVersion,
} from './release-commits';
export { type UpgradeTrial, type UpgradeTrialOptions, upgradeTrial } from './upgrade-trial';

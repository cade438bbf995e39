// "@petstore/testing/service": starting the built service and stopping it, without the rest of @petstore/testing
// (Chromium's driver, PostgreSQL's), so that a test in jsdom can load it: a sibling web page's, say.
export { type NodeProcess, stopNode } from './node-process';
export { type ServiceSpawnOptions, type StartedService, startService } from './built-service';

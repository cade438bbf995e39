// Under `npm test` the environment carries the workspace's npm_config_* (prefix included); an npm or Nx run as a user
// would run it (a consumer's project, a release's dry run) must not see them.
/** This process's environment without any npm_* variable. */
export const NPM_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

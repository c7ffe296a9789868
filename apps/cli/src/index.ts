/** The library side of @gateway/cli: what the e2e harness and the benches reuse. The bin is main.ts. */
export { AdminClient, type AdminClientOptions } from './admin/admin-client';
export { AdminApiError, AdminUnreachableError } from './admin/admin-errors';
export { CliError, EXIT } from './cli-error';
export { loadConfigFile, parseConfigText } from './config/config-file';
export { expandEnvDeep, expandEnvString } from './config/env-expansion';
export { freePort, freePorts } from './stack/free-port';
export { checkInfrastructure, START_COMMANDS } from './stack/infra-check';
export { launchStack, type RunningStack } from './stack/stack-launcher';
export { REPO_ROOT, STACK_APPS, type StackApp, type StackOptions, type EdgeEndpoint } from './stack/stack-options';
export type { LogSink } from './stack/app-process';

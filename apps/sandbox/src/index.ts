export * from './sandbox.app';
export * from './sandbox-env';
export * from './core/controls';
export type { StatsSnapshot } from './core/stats';
export { VERTEX_TEST_SERVICE_ACCOUNT, VERTEX_TEST_SERVICE_ACCOUNT_FILE } from './protocols/vertex/test-service-account';
export * from './protocols/bedrock/bedrock.keys';

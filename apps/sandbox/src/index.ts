export * from './sandbox.app';
export * from './sandbox-env';
export * from './core/controls';
export type { StatsSnapshot } from './core/stats';
export * from './protocols/bedrock/bedrock.keys';

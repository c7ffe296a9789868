export * from './error-code';
export * from './gateway-error';
export * from './zod-issue';
export * from './error-status';

export * from './task-hold';
export * from './task-billing';

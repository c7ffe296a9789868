export * from './task-hold';
export * from './task-billing';
export * from './task-usage';

export * from './room.schema';

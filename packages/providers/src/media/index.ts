export * from './media-job.types';
export * from './media-vendors';

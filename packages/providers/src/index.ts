export * from './provider.types';

export * from './translation.registry';
export * from './crossed-error';

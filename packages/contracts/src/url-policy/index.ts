export * from './url-policy';
export * from './url-policy.schema';

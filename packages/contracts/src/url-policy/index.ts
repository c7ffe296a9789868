export * from './url-policy';
export * from './url-policy.schema';
export * from './resolved-address';

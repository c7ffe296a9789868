export * from './console.subjects';
export * from './console-people.schema';
export * from './console-session.schema';
export * from './console-oidc.schema';
export * from './console-api.schema';
export * from './password-rules';
export * from './console-operator.schema';

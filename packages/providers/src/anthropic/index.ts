export * from './anthropic-request.transform';
export * from './anthropic-response.transform';
export * from './anthropic-error.transform';

// Anthropic's error dialect: {type:'error', error:{type, message}}.

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function renderAnthropicError(status: number, message: string): unknown {
  return { type: 'error', error: { type: errorType(status), message } };
}

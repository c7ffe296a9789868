// OpenAI's error dialect: {error: {message, type, param, code}}.

function errorType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function renderOpenaiError(status: number, message: string, param: string | null, code: string | null): unknown {
  return { error: { message, type: errorType(status), param, code } };
}

// Gemini's error dialect: {error:{code, message, status}}.

function statusName(code: number): string {
  if (code === 400) return 'INVALID_ARGUMENT';
  if (code === 401) return 'UNAUTHENTICATED';
  if (code === 403) return 'PERMISSION_DENIED';
  if (code === 404) return 'NOT_FOUND';
  if (code === 429) return 'RESOURCE_EXHAUSTED';
  if (code === 503) return 'UNAVAILABLE';
  return 'INTERNAL';
}

export function renderGeminiError(status: number, message: string): unknown {
  return { error: { code: status, message, status: statusName(status) } };
}

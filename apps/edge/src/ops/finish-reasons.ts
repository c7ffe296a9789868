/** Why a unary chat answer ended, as each family's body says it: for the request span's GenAI attributes. */
function strings(values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

export function finishReasonsOf(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const record = body as { choices?: unknown; stop_reason?: unknown; candidates?: unknown };
  if (Array.isArray(record.choices)) return strings(record.choices.map((choice) => (choice as { finish_reason?: unknown } | null)?.finish_reason));
  if (Array.isArray(record.candidates)) return strings(record.candidates.map((candidate) => (candidate as { finishReason?: unknown } | null)?.finishReason));
  return strings([record.stop_reason]);
}

import type { OaicOperation } from '@gateway/providers';

/** The text a stream event adds to the answer (for counting what reached a client that left early). */
export function deltaText(op: OaicOperation, event: Record<string, unknown>): string {
  if (op === 'responses') return event.type === 'response.output_text.delta' && typeof event.delta === 'string' ? event.delta : '';
  const choice = (event.choices as Array<Record<string, unknown>> | undefined)?.[0];
  if (!choice) return '';
  if (op === 'completions') return typeof choice.text === 'string' ? choice.text : '';
  const delta = choice.delta as { content?: unknown; tool_calls?: Array<{ function?: { arguments?: unknown } }> } | undefined;
  const args = delta?.tool_calls?.map((call) => (typeof call.function?.arguments === 'string' ? call.function.arguments : '')).join('') ?? '';
  return (typeof delta?.content === 'string' ? delta.content : '') + args;
}

/** Rewrites the upstream model name to the public id without re-encoding the event. */
export function publicModelRewriter(upstreamModel: string, publicModel: string): (data: string) => string {
  if (upstreamModel === publicModel) return (data) => data;
  const from = `"model":${JSON.stringify(upstreamModel)}`;
  const to = `"model":${JSON.stringify(publicModel)}`;
  return (data) => data.split(from).join(to);
}

/** Replaces one id (as a JSON string) with another in an event's data. */
export function publicIdRewriter(upstreamId: string, publicId: string): (data: string) => string {
  const from = JSON.stringify(upstreamId);
  const to = JSON.stringify(publicId);
  return (data) => data.split(from).join(to);
}

const TOKEN = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** A local token estimate (words and punctuation marks) for when the upstream's own count never arrived. */
export function estimateTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/** Whether an event shows the answer completed (so an early end of the body is a cut stream). */
export function isFinalEvent(op: OaicOperation, event: Record<string, unknown>): boolean {
  if (op === 'responses') return event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed';
  if (event.usage) return true;
  return ((event.choices as Array<{ finish_reason?: unknown }> | undefined) ?? []).some((choice) => Boolean(choice.finish_reason));
}

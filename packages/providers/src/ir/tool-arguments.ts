// Tool-call arguments travel as JSON text in the IR; msgc and genc carry them as objects.
import { GatewayError } from '@gateway/contracts';

/** The arguments object of a tool call; empty text means no arguments. */
export function parseToolArguments(text: string, where: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw GatewayError.invalid(`tool call arguments at '${where}' are not valid JSON`, where);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw GatewayError.invalid(`tool call arguments at '${where}' must be a JSON object`, where);
  }
  return value as Record<string, unknown>;
}

/** Same, for arguments an upstream produced: a malformed answer is the upstream's fault, not the client's. */
export function parseUpstreamToolArguments(text: string): Record<string, unknown> {
  try {
    return parseToolArguments(text, 'tool_calls');
  } catch {
    throw new GatewayError('upstream_error', 'the upstream returned tool call arguments that are not a JSON object', null, 502);
  }
}

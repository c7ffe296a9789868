// Bedrock's own controls, beside the shared ones (latency, chunk delay, fail=429/503/500/cut/hang): through
// `x-sandbox-bedrock` or the model suffix (`anthropic.claude-x@bedrock=not-ready`, `@long=400`).
import { z } from 'zod';
import { ControlError, splitModelName } from '../../core/controls';

export const BedrockMode = z.enum(['not-ready', 'quota', 'guardrail', 'filtered', 'stream-error', 'drift']);
export type BedrockMode = z.infer<typeof BedrockMode>;

export interface BedrockControls {
  /** not-ready: ModelNotReadyException; quota: ServiceQuotaExceededException (a 400, as AWS sends it); guardrail / filtered: the stop reason says the answer was blocked; stream-error: an exception message mid-stream; drift: an answer the SDK must refuse. */
  mode: BedrockMode | null;
  /** Pad a text answer to this many tokens. */
  longTokens: number | null;
}

const Tokens = z.coerce.number().int().min(1).max(100_000);

export function resolveBedrockControls(headers: Record<string, string | string[] | undefined>, modelId: string): BedrockControls {
  const options = splitModelName(modelId).options;
  const raw = headers['x-sandbox-bedrock'];
  const modeText = (Array.isArray(raw) ? raw[0] : raw) ?? options.bedrock;
  const mode = modeText === undefined ? null : BedrockMode.safeParse(modeText);
  if (mode && !mode.success) throw new ControlError(`Invalid bedrock control: "${modeText}" (expected ${BedrockMode.options.join(', ')}).`, 'bedrock');
  const long = options.long === undefined ? null : Tokens.safeParse(options.long);
  if (long && !long.success) throw new ControlError(`Invalid long control: "${options.long}" is not a number of tokens.`, 'long');
  return { mode: mode?.data ?? null, longTokens: long?.data ?? null };
}

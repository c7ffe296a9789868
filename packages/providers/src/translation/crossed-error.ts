// An upstream that refuses a request translated from another family names its own fields
// ("max_completion_tokens", "generation_config.temperature", "messages.0.content"). The client sent
// none of those: its error names the client's own field where the mapping is known, and otherwise
// says plainly that the upstream refused the translated request.
import { GatewayError } from '@gateway/contracts';
import type { IrFamily } from '../ir/chat-ir.schema';
import { fieldName, type IrField } from '../ir/field-names';

const IR_FIELDS: readonly IrField[] = [
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stop',
  'responseModalities',
  'safetySettings',
  'toolChoice',
  'tools',
  'maxTokens',
  'responseFormat',
  'reasoning',
];

/** Spellings an upstream uses besides the family's own, normalised. */
const ALIASES: Record<string, IrField> = { maxcompletiontokens: 'maxTokens', maxoutputtokens: 'maxTokens', stopsequences: 'stop' };

/** One spelling for snake_case, camelCase and the generationConfig prefix: `generation_config.top_p` → `topp`. */
function normalise(path: string): string {
  return path
    .toLowerCase()
    .replace(/_/g, '')
    .replace(/^generationconfig\./, '');
}

function fieldOfUpstreamName(upstream: IrFamily, path: string): IrField | null {
  const wanted = normalise(path);
  for (const field of IR_FIELDS) if (normalise(fieldName(upstream, field)) === wanted) return field;
  return ALIASES[wanted] ?? null;
}

/** The field paths an upstream's refusal points at: its `param`, quoted paths, and a leading `path: ` (Anthropic's form). */
function citedPaths(error: GatewayError): string[] {
  const paths = error.param ? [error.param] : [];
  for (const match of error.message.matchAll(/['"`]([A-Za-z_][\w.[\]]*)['"`]/g)) paths.push(match[1]!);
  const leading = /^([A-Za-z_][\w.[\]]*):\s/.exec(error.message);
  if (leading) paths.push(leading[1]!);
  return paths;
}

/**
 * The refusal of a crossed call as the client should read it: `param` is the client's field or null,
 * never the upstream's; the upstream's words are kept, said to be about the translated request.
 * Errors that are not about the request's content pass unchanged.
 */
export function crossedUpstreamError(error: GatewayError, clientFamily: IrFamily, upstreamFamily: IrFamily): GatewayError {
  if (error.code !== 'invalid_request' && error.code !== 'payload_too_large') return error;
  let clientField: string | null = null;
  for (const path of citedPaths(error)) {
    const field = fieldOfUpstreamName(upstreamFamily, path);
    if (field) {
      clientField = fieldName(clientFamily, field);
      break;
    }
  }
  const concerns = clientField ? `; it concerns '${clientField}' of your request` : '';
  const message = `The upstream refused the request as translated for its own format (its field names, not yours): ${error.message.replace(/\.$/, '')}${concerns}.`;
  return new GatewayError(error.code, message, clientField, error.upstreamStatus, error.retryAfterSeconds);
}

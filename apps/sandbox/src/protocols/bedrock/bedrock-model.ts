// What a Bedrock model id names: foundation-model ids (with `:` versions), cross-region inference
// profiles (`us.anthropic.…`) and ARNs all resolve to the base model, which decides what it can do.
import { splitModelName } from '../../core/controls';
import { BedrockError } from './bedrock.errors';

export type BedrockModelKind = 'claude' | 'chat' | 'titan-embed' | 'cohere-embed';

const ARN = /^arn:aws(?:-[a-z]+)*:bedrock:[a-z0-9-]*:\d{0,12}:(?:foundation-model|inference-profile|application-inference-profile)\/(.+)$/;
const REGION_PREFIX = /^(?:us|eu|apac|us-gov|jp|au|ca|global)\./;
const CHAT_MAKERS = /^(?:meta|mistral|amazon\.nova|ai21|cohere\.command|deepseek|openai|qwen|writer)[.-]/;

export function baseModelOf(modelId: string): string {
  const name = splitModelName(modelId).name;
  const arn = ARN.exec(name);
  return (arn ? arn[1]! : name).replace(REGION_PREFIX, '');
}

export function modelKindOf(modelId: string): BedrockModelKind {
  const base = baseModelOf(modelId);
  if (base.startsWith('anthropic.claude')) return 'claude';
  if (base.startsWith('amazon.titan-embed')) return 'titan-embed';
  if (base.startsWith('cohere.embed')) return 'cohere-embed';
  if (CHAT_MAKERS.test(base)) return 'chat';
  throw new BedrockError(400, 'ValidationException', 'The provided model identifier is invalid.');
}

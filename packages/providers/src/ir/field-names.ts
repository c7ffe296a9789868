// How a request field is spelled in the family the client used, so an error names what the client sent.
import { GatewayError } from '@gateway/contracts';
import type { IrFamily } from './chat-ir.schema';

export type IrField =
  | 'temperature'
  | 'topP'
  | 'topK'
  | 'presencePenalty'
  | 'frequencyPenalty'
  | 'stop'
  | 'responseModalities'
  | 'safetySettings'
  | 'toolChoice'
  | 'tools'
  | 'maxTokens'
  | 'responseFormat'
  | 'reasoning'
  | 'parallelToolCalls';

const NAMES: Record<IrFamily, Record<IrField, string>> = {
  oaic: {
    temperature: 'temperature',
    topP: 'top_p',
    topK: 'top_k',
    presencePenalty: 'presence_penalty',
    frequencyPenalty: 'frequency_penalty',
    stop: 'stop',
    responseModalities: 'modalities',
    safetySettings: 'safety_settings',
    toolChoice: 'tool_choice',
    tools: 'tools',
    maxTokens: 'max_tokens',
    responseFormat: 'response_format',
    reasoning: 'reasoning_effort',
    parallelToolCalls: 'parallel_tool_calls',
  },
  msgc: {
    temperature: 'temperature',
    topP: 'top_p',
    topK: 'top_k',
    presencePenalty: 'presence_penalty',
    frequencyPenalty: 'frequency_penalty',
    stop: 'stop_sequences',
    responseModalities: 'response_modalities',
    safetySettings: 'safety_settings',
    toolChoice: 'tool_choice',
    tools: 'tools',
    maxTokens: 'max_tokens',
    responseFormat: 'output_format',
    reasoning: 'thinking',
    parallelToolCalls: 'tool_choice.disable_parallel_tool_use',
  },
  genc: {
    temperature: 'generationConfig.temperature',
    topP: 'generationConfig.topP',
    topK: 'generationConfig.topK',
    presencePenalty: 'generationConfig.presencePenalty',
    frequencyPenalty: 'generationConfig.frequencyPenalty',
    stop: 'generationConfig.stopSequences',
    responseModalities: 'generationConfig.responseModalities',
    safetySettings: 'safetySettings',
    toolChoice: 'toolConfig',
    tools: 'tools',
    maxTokens: 'generationConfig.maxOutputTokens',
    responseFormat: 'generationConfig.responseSchema',
    reasoning: 'generationConfig.thinkingConfig',
    parallelToolCalls: 'toolConfig',
  },
};

export function fieldName(family: IrFamily, field: IrField): string {
  return NAMES[family][field];
}

/** The request needs something the upstream of this model cannot express. */
export function unsupported(family: IrFamily, field: IrField, why: string): GatewayError {
  const name = fieldName(family, field);
  return GatewayError.invalid(`'${name}' is not supported by this model: ${why}`, name);
}

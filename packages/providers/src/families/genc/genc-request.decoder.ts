// genc request → IR. Function calls without an id get one, and each functionResponse is linked to the
// earliest unanswered call of the same name, so families that link by id keep the pairing.
import { GatewayError, type GencContent, type GenerateContentRequest } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage, IrPart, IrReasoning, IrResponseFormat, IrTextPart, IrToolChoice, IrToolResultPart } from '../../ir/chat-ir.schema';
import { budgetOfEffort, effortOfBudget, effortOfWord } from '../../ir/reasoning-budget';
import { jsonSchemaOfOpenApi } from '../../ir/schema-dialect';

interface PendingCall {
  id: string;
  name: string;
}

function imageMime(mimeType: string, where: string): string {
  if (!mimeType.startsWith('image/')) throw GatewayError.invalid(`only image media can reach this model, not ${mimeType}`, where);
  return mimeType;
}

function decodeContent(content: GencContent, i: number, pending: PendingCall[], out: IrMessage[]): void {
  const role = content.role === 'model' ? 'assistant' : 'user';
  const parts: IrPart[] = [];
  const results: IrToolResultPart[] = [];
  for (let j = 0; j < content.parts.length; j++) {
    const part = content.parts[j]!;
    const where = `contents[${i}].parts[${j}]`;
    if (part.text !== undefined) {
      if (part.thought !== true) parts.push({ type: 'text', text: part.text });
      else if (role === 'assistant') parts.push({ type: 'reasoning', text: part.text, signature: part.thoughtSignature ?? null, redacted: null });
    } else if (part.inlineData) {
      parts.push({
        type: 'image',
        mediaType: imageMime(part.inlineData.mimeType, `${where}.inlineData.mimeType`),
        data: part.inlineData.data,
        url: null,
        param: `${where}.inlineData`,
      });
    } else if (part.fileData) {
      parts.push({
        type: 'image',
        mediaType: imageMime(part.fileData.mimeType, `${where}.fileData.mimeType`),
        data: null,
        url: part.fileData.fileUri,
        param: `${where}.fileData.fileUri`,
      });
    } else if (part.functionCall) {
      if (role !== 'assistant') throw GatewayError.invalid('functionCall parts belong to model turns', where);
      const id = part.functionCall.id ?? `call_${i}_${j}`;
      pending.push({ id, name: part.functionCall.name });
      parts.push({ type: 'tool_call', id, name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) });
    } else if (part.functionResponse) {
      const { id, name, response } = part.functionResponse;
      const at = pending.findIndex((call) => (id !== undefined ? call.id === id : call.name === name));
      if (at < 0) throw GatewayError.invalid(`functionResponse "${name}" answers no earlier functionCall`, where);
      const call = pending.splice(at, 1)[0]!;
      results.push({ type: 'tool_result', toolCallId: call.id, name, content: JSON.stringify(response), isError: false });
    }
  }
  if (results.length > 0) out.push({ role: 'tool', parts: results });
  if (parts.length > 0 || results.length === 0) out.push({ role, parts });
}

function systemParts(body: GenerateContentRequest): IrTextPart[] {
  const parts = body.systemInstruction?.parts ?? [];
  return parts.map((part, j) => {
    if (part.text === undefined) throw GatewayError.invalid('systemInstruction holds text parts only', `systemInstruction.parts[${j}]`);
    return { type: 'text', text: part.text };
  });
}

function toolChoice(body: GenerateContentRequest): IrToolChoice | null {
  const config = body.toolConfig?.functionCallingConfig;
  if (!config?.mode) return null;
  if (config.mode === 'NONE') return { type: 'none', name: null };
  // VALIDATED lets the model answer in text or call a function (checked against its schema): auto, with schema adherence.
  if (config.mode === 'ANY') {
    const allowed = config.allowedFunctionNames ?? [];
    if (allowed.length > 1) throw GatewayError.invalid('this model can be held to one function only', 'toolConfig.functionCallingConfig.allowedFunctionNames');
    return allowed.length === 1 ? { type: 'tool', name: allowed[0]! } : { type: 'any', name: null };
  }
  return { type: 'auto', name: null };
}

/** genc spells JSON output as a MIME type plus an optional schema, in either dialect. */
function responseFormat(body: GenerateContentRequest): IrResponseFormat | null {
  const config = body.generationConfig;
  const mime = config?.responseMimeType;
  if (mime === undefined || mime === 'text/plain') {
    if (config?.responseSchema || config?.responseJsonSchema)
      throw GatewayError.invalid('a response schema needs responseMimeType "application/json"', 'generationConfig.responseMimeType');
    return null;
  }
  if (mime !== 'application/json') throw GatewayError.invalid(`responseMimeType "${mime}" is not supported by this model`, 'generationConfig.responseMimeType');
  if (config?.responseSchema && config.responseJsonSchema)
    throw GatewayError.invalid('give responseSchema or responseJsonSchema, not both', 'generationConfig.responseJsonSchema');
  const schema = config?.responseJsonSchema ?? (config?.responseSchema ? (jsonSchemaOfOpenApi(config.responseSchema) as Record<string, unknown>) : null);
  return schema ? { type: 'json_schema', name: 'response', description: null, schema, strict: null } : { type: 'json_object' };
}

/** thinkingBudget 0 is off; -1 (the model decides) is the medium level; a level word sets the budget from the table. */
function reasoning(body: GenerateContentRequest): IrReasoning | null {
  const thinking = body.generationConfig?.thinkingConfig;
  if (!thinking) return null;
  const includeThoughts = thinking.includeThoughts === true;
  if (thinking.thinkingLevel !== undefined) {
    const level = effortOfWord(thinking.thinkingLevel);
    if (!level) throw GatewayError.invalid(`unknown thinkingLevel "${thinking.thinkingLevel}"`, 'generationConfig.thinkingConfig.thinkingLevel');
    return { effort: level, budgetTokens: budgetOfEffort(level), includeThoughts };
  }
  const budget = thinking.thinkingBudget;
  if (budget === 0) return null;
  if (budget === undefined || budget < 0) return { effort: 'medium', budgetTokens: budgetOfEffort('medium'), includeThoughts };
  return { effort: effortOfBudget(budget), budgetTokens: budget, includeThoughts };
}

function responseModalities(body: GenerateContentRequest): ChatIrRequest['responseModalities'] {
  const modalities = body.generationConfig?.responseModalities;
  if (!modalities) return null;
  if (modalities.includes('AUDIO')) throw GatewayError.invalid('audio output is not supported by this model', 'generationConfig.responseModalities');
  return modalities.map((modality) => (modality === 'IMAGE' ? 'image' : 'text'));
}

/** `model` comes from the path; `stream` from the route (generateContent or streamGenerateContent). */
export function fromGencRequest(body: GenerateContentRequest, model: string, stream: boolean): ChatIrRequest {
  const pending: PendingCall[] = [];
  const messages: IrMessage[] = [];
  for (let i = 0; i < body.contents.length; i++) decodeContent(body.contents[i]!, i, pending, messages);
  const config = body.generationConfig ?? {};
  if ((config.candidateCount ?? 1) > 1) throw GatewayError.invalid('this model answers with one candidate only', 'generationConfig.candidateCount');
  const tools = (body.tools ?? []).flatMap((tool, t) => {
    if (!tool.functionDeclarations) throw GatewayError.invalid('only functionDeclarations tools are supported by this model', `tools[${t}]`);
    return tool.functionDeclarations.map((fn) => ({
      name: fn.name,
      description: fn.description ?? null,
      parameters:
        fn.parametersJsonSchema ?? ((fn.parameters ? jsonSchemaOfOpenApi(fn.parameters) : { type: 'object', properties: {} }) as Record<string, unknown>),
    }));
  });
  return {
    family: 'genc',
    model,
    system: systemParts(body),
    messages,
    tools,
    toolChoice: toolChoice(body),
    parallelToolCalls: null,
    responseFormat: responseFormat(body),
    reasoning: reasoning(body),
    maxTokens: config.maxOutputTokens ?? null,
    temperature: config.temperature ?? null,
    topP: config.topP ?? null,
    topK: config.topK ?? null,
    presencePenalty: config.presencePenalty ?? null,
    frequencyPenalty: config.frequencyPenalty ?? null,
    stop: config.stopSequences ?? [],
    responseModalities: responseModalities(body),
    safetySettings: body.safetySettings ? body.safetySettings.map((s) => ({ category: s.category, threshold: s.threshold })) : null,
    user: null,
    stream,
  };
}

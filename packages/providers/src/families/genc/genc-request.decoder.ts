// genc request → IR. Function calls without an id get one, and each functionResponse is linked to the
// earliest unanswered call of the same name, so families that link by id keep the pairing.
import { GatewayError, type GencContent, type GenerateContentRequest } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage, IrPart, IrTextPart, IrToolChoice, IrToolResultPart } from '../../ir/chat-ir.schema';

interface PendingCall {
  id: string;
  name: string;
}

/**
 * Gemini schemas name types in capitals (`OBJECT`, `STRING`); the IR holds JSON Schema, whose type names
 * are lowercase, so the other protocols accept the declarations.
 */
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Property names are the client's own: only the schemas under them are rewritten.
    if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, jsonSchemaOf(property)]));
    } else if (key === 'type' && typeof value === 'string') out[key] = value.toLowerCase();
    else if (key === 'type' && Array.isArray(value)) out[key] = value.map((type) => (typeof type === 'string' ? type.toLowerCase() : type));
    else if (key === 'enum' || key === 'example' || key === 'default' || key === 'const') out[key] = value;
    else out[key] = jsonSchemaOf(value);
  }
  return out;
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
  if (config.mode === 'ANY' || config.mode === 'VALIDATED') {
    const allowed = config.allowedFunctionNames ?? [];
    if (allowed.length > 1) throw GatewayError.invalid('this model can be held to one function only', 'toolConfig.functionCallingConfig.allowedFunctionNames');
    return allowed.length === 1 ? { type: 'tool', name: allowed[0]! } : { type: 'any', name: null };
  }
  return { type: 'auto', name: null };
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
      parameters: jsonSchemaOf(fn.parameters) as Record<string, unknown>,
    }));
  });
  return {
    family: 'genc',
    model,
    system: systemParts(body),
    messages,
    tools,
    toolChoice: toolChoice(body),
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

// IR → a Gemini generateContent / streamGenerateContent call. System parts become systemInstruction; tool
// results become functionResponse parts, named after the call they answer (Gemini links by name, not id).
import { GatewayError } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage, IrPart } from '../../ir/chat-ir.schema';
import { fieldName } from '../../ir/field-names';
import { openApiOfJsonSchema } from '../../ir/schema-dialect';
import { parseToolArguments } from '../../ir/tool-arguments';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';

type Part = Record<string, unknown>;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
};

/** Gemini needs a MIME type beside every file URI; a URL from the oaic family only hints at it. */
function mimeOfUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0]!;
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return MIME_BY_EXTENSION[extension] ?? 'image/jpeg';
}

function responseObject(content: string, isError: boolean): Record<string, unknown> {
  if (content.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(content);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Not JSON after all: wrapped below like any other text.
    }
  }
  return isError ? { error: content } : { result: content };
}

function partOf(part: IrPart, names: Map<string, string>, ir: ChatIrRequest): Part | null {
  const where = ir.family === 'genc' ? 'contents' : 'messages';
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return part.data !== null
        ? { inlineData: { mimeType: part.mediaType ?? 'image/png', data: part.data } }
        : { fileData: { mimeType: part.mediaType ?? mimeOfUrl(part.url!), fileUri: part.url } };
    case 'tool_call':
      names.set(part.id, part.name);
      return { functionCall: { name: part.name, args: parseToolArguments(part.arguments, where) } };
    case 'tool_result': {
      const name = part.name ?? names.get(part.toolCallId);
      if (!name) throw GatewayError.invalid(`the tool result for "${part.toolCallId}" answers no earlier tool call`, where);
      return { functionResponse: { name, response: responseObject(part.content, part.isError) } };
    }
    case 'reasoning':
      // Earlier thoughts are not input to this protocol: the model thinks afresh each turn.
      return null;
  }
}

function contentsOf(ir: ChatIrRequest): Content[] {
  const names = new Map<string, string>();
  const contents: Content[] = [];
  for (const message of ir.messages as IrMessage[]) {
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts: Part[] = [];
    for (const part of message.parts) {
      const out = partOf(part, names, ir);
      if (out) parts.push(out);
    }
    if (parts.length === 0) continue;
    const last = contents[contents.length - 1];
    if (last?.role === role) for (const part of parts) last.parts.push(part);
    else contents.push({ role, parts });
  }
  return contents;
}

function toolConfig(ir: ChatIrRequest): Record<string, unknown> | undefined {
  const choice = ir.toolChoice;
  if (!choice) return undefined;
  if (choice.type === 'tool') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  return { functionCallingConfig: { mode: choice.type === 'any' ? 'ANY' : choice.type === 'none' ? 'NONE' : 'AUTO' } };
}

function generationConfig(ir: ChatIrRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (ir.temperature !== null) config.temperature = ir.temperature;
  if (ir.topP !== null) config.topP = ir.topP;
  if (ir.topK !== null) config.topK = ir.topK;
  if (ir.maxTokens !== null) config.maxOutputTokens = ir.maxTokens;
  if (ir.stop.length > 0) config.stopSequences = ir.stop;
  if (ir.presencePenalty !== null) config.presencePenalty = ir.presencePenalty;
  if (ir.frequencyPenalty !== null) config.frequencyPenalty = ir.frequencyPenalty;
  if (ir.responseModalities !== null) config.responseModalities = ir.responseModalities.map((modality) => modality.toUpperCase());
  const format = ir.responseFormat;
  if (format) {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema') config.responseSchema = openApiOfJsonSchema(format.schema, fieldName(ir.family, 'responseFormat'));
  }
  if (ir.reasoning) config.thinkingConfig = { thinkingBudget: ir.reasoning.budgetTokens, includeThoughts: ir.reasoning.includeThoughts };
  return config;
}

export function toGeminiBody(ir: ChatIrRequest): Record<string, unknown> {
  const contents = contentsOf(ir);
  if (contents.length === 0) throw GatewayError.invalid('the request holds no content to send', ir.family === 'genc' ? 'contents' : 'messages');
  const body: Record<string, unknown> = { contents };
  if (ir.system.length > 0) body.systemInstruction = { parts: ir.system.map((part) => ({ text: part.text })) };
  if (ir.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: ir.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description !== null ? { description: tool.description } : {}),
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
  }
  const config = toolConfig(ir);
  if (config) body.toolConfig = config;
  const generation = generationConfig(ir);
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  if (ir.safetySettings !== null) body.safetySettings = ir.safetySettings;
  return body;
}

/** The HTTP call around a generateContent body (the model is in the URL), translated or passed through as sent. */
export function geminiCall(body: Record<string, unknown>, channel: ChannelTarget, stream: boolean): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) headers['x-goog-api-key'] = channel.apiKey;
  const base = `${channel.baseUrl.replace(/\/+$/, '')}/models/${encodeURIComponent(channel.upstreamModel)}`;
  const url = stream ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`;
  if (stream) headers.accept = 'text/event-stream';
  return { method: 'POST', url, headers, body: JSON.stringify(body), stream };
}

export function toGeminiRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  return geminiCall(toGeminiBody(ir), channel, ir.stream);
}

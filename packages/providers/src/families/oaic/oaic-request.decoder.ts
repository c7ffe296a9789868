// oaic chat request → IR. System and developer messages anywhere in `messages` become IR system parts;
// consecutive tool messages become one tool turn. Fields the spec passes through unnamed are read here
// with small schemas of their own, so nothing unparsed reaches the IR.
import { GatewayError, parseOrThrow, type ChatCompletionRequest, type ChatMessage } from '@gateway/contracts';
import { z } from 'zod';
import type { ChatIrRequest, IrMessage, IrPart, IrReasoning, IrResponseFormat, IrTextPart, IrToolChoice } from '../../ir/chat-ir.schema';
import { budgetOfEffort, effortOfWord } from '../../ir/reasoning-budget';

const ToolCallIn = z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});
const ToolCallsIn = z.array(ToolCallIn);
const FunctionToolIn = z.object({
  type: z.literal('function', { error: 'only function tools can reach this model' }),
  function: z.object({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
});
const NamedChoiceIn = z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) });
const JsonSchemaFormatIn = z.looseObject({
  type: z.literal('json_schema'),
  json_schema: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});
const ResponseFormatIn = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  JsonSchemaFormatIn,
]);
const ExtrasIn = z.looseObject({
  n: z.number().int().nullish(),
  response_format: ResponseFormatIn.nullish(),
  modalities: z.array(z.string()).nullish(),
  reasoning_effort: z.string().nullish(),
  parallel_tool_calls: z.boolean().nullish(),
});
/** A cache breakpoint on a content part, as Anthropic spells it (the convention oaic clients of Anthropic models use). */
const CacheMarked = z.looseObject({ cache_control: z.looseObject({ type: z.string() }).nullish() });

function isCacheMarked(value: unknown): boolean {
  const parsed = CacheMarked.safeParse(value);
  return parsed.success && parsed.data.cache_control != null;
}

// ContentBlock has already checked each block (text has a string text, image_url a valid url), so the
// reads below only narrow what the schema proved.
const DATA_URL_HEAD = /^data:(image\/[a-z0-9.+-]+);base64,/i;

function responseFormat(format: z.infer<typeof ResponseFormatIn> | null | undefined): IrResponseFormat | null {
  if (!format || format.type === 'text') return null;
  if (format.type === 'json_object') return { type: 'json_object' };
  const spec = format.json_schema;
  return { type: 'json_schema', name: spec.name, description: spec.description ?? null, schema: spec.schema ?? {}, strict: spec.strict ?? null };
}

function reasoning(effort: string | null | undefined): IrReasoning | null {
  if (effort == null || effort === 'none') return null;
  const level = effortOfWord(effort);
  if (!level) throw GatewayError.invalid(`unknown reasoning_effort "${effort}" (expected minimal, low, medium or high)`, 'reasoning_effort');
  return { effort: level, budgetTokens: budgetOfEffort(level), includeThoughts: true };
}

function textOf(message: ChatMessage, i: number): string {
  const content = message.content;
  if (content == null) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (let j = 0; j < content.length; j++) {
    const block = content[j]!;
    if (block.type !== 'text') throw GatewayError.invalid(`${message.role} messages hold text only`, `messages[${i}].content[${j}]`);
    text += block.text as string;
  }
  return text;
}

function userParts(message: ChatMessage, i: number): IrPart[] {
  const content = message.content;
  if (content == null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((block, j): IrPart => {
    if (block.type === 'text')
      return isCacheMarked(block) ? { type: 'text', text: block.text as string, cache: true } : { type: 'text', text: block.text as string };
    const url = (block.image_url as { url: string }).url;
    const param = `messages[${i}].content[${j}].image_url.url`;
    const head = DATA_URL_HEAD.exec(url);
    if (head) return { type: 'image', mediaType: head[1]!.toLowerCase(), data: url.slice(head[0].length), url: null, param };
    return { type: 'image', mediaType: null, data: null, url, param };
  });
}

function assistantParts(message: ChatMessage, i: number): IrPart[] {
  const parts: IrPart[] = [];
  const text = textOf(message, i);
  if (text !== '') parts.push({ type: 'text', text });
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    for (const call of parseOrThrow(ToolCallsIn, message.tool_calls, `messages[${i}].tool_calls`)) {
      parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments });
    }
  }
  return parts;
}

function toolChoice(choice: ChatCompletionRequest['tool_choice']): IrToolChoice | null {
  if (choice === undefined) return null;
  if (choice === 'auto') return { type: 'auto', name: null };
  if (choice === 'none') return { type: 'none', name: null };
  if (choice === 'required') return { type: 'any', name: null };
  if (typeof choice === 'string') throw GatewayError.invalid(`unknown tool_choice "${choice}"`, 'tool_choice');
  return { type: 'tool', name: parseOrThrow(NamedChoiceIn, choice, 'tool_choice').function.name };
}

export function fromOaicRequest(body: ChatCompletionRequest): ChatIrRequest {
  const system: IrTextPart[] = [];
  const messages: IrMessage[] = [];
  for (let i = 0; i < body.messages.length; i++) {
    const message = body.messages[i]!;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const marked = Array.isArray(message.content) && message.content.some(isCacheMarked);
        system.push(marked ? { type: 'text', text: textOf(message, i), cache: true } : { type: 'text', text: textOf(message, i) });
        break;
      }
      case 'user':
        messages.push({ role: 'user', parts: userParts(message, i) });
        break;
      case 'assistant':
        messages.push({ role: 'assistant', parts: assistantParts(message, i) });
        break;
      case 'tool': {
        const part: IrPart = {
          type: 'tool_result',
          toolCallId: message.tool_call_id!,
          name: message.name ?? null,
          content: textOf(message, i),
          isError: false,
        };
        const last = messages[messages.length - 1];
        if (last?.role === 'tool') last.parts.push(part);
        else messages.push({ role: 'tool', parts: [part] });
        break;
      }
    }
  }
  const extras = parseOrThrow(ExtrasIn, body);
  if ((extras.n ?? 1) > 1) throw GatewayError.invalid('this model answers with one choice only', 'n');
  const tools = (body.tools ?? []).map((tool, t) => {
    const fn = parseOrThrow(FunctionToolIn, tool, `tools[${t}]`).function;
    return { name: fn.name, description: fn.description ?? null, parameters: fn.parameters ?? { type: 'object', properties: {} } };
  });
  const stop = body.stop == null ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop;
  return {
    family: 'oaic',
    model: body.model,
    system,
    messages,
    tools,
    toolChoice: toolChoice(body.tool_choice),
    parallelToolCalls: extras.parallel_tool_calls ?? null,
    responseFormat: responseFormat(extras.response_format),
    reasoning: reasoning(extras.reasoning_effort),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    temperature: body.temperature ?? null,
    topP: body.top_p ?? null,
    topK: null,
    presencePenalty: body.presence_penalty ?? null,
    frequencyPenalty: body.frequency_penalty ?? null,
    stop,
    responseModalities: extras.modalities?.includes('image') ? ['text', 'image'] : null,
    safetySettings: null,
    user: body.user ?? null,
    stream: body.stream === true,
  };
}

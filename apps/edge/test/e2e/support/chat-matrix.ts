/**
 * One chat question asked in any public family with its official SDK, and the answer normalized (text,
 * tool call, stop reason, usage), so the family × upstream-protocol matrix is one table of cases.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Type, type GenerateContentResponse, type GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import { anthropicClient, googleClient, openaiClient } from './gateway';

export type ChatFamily = 'oaic' | 'msgc' | 'genc';

/** A public model on each upstream protocol of the sandbox catalog. */
export const MODEL_OF_PROTOCOL = {
  openai: 'sandbox-gpt',
  anthropic: 'sandbox-claude',
  gemini: 'sandbox-gemini',
  'azure-openai': 'sandbox-azure-gpt',
  'bedrock (Claude)': 'sandbox-bedrock-claude',
  'bedrock (Llama)': 'sandbox-bedrock-llama',
  'vertex (Gemini)': 'sandbox-vertex-gemini',
  'vertex (Claude)': 'sandbox-vertex-claude',
} as const;
export type UpstreamProtocol = keyof typeof MODEL_OF_PROTOCOL;

export const STOP_WORDS: Record<ChatFamily, { end: string; tool: string; length: string }> = {
  oaic: { end: 'stop', tool: 'tool_calls', length: 'length' },
  msgc: { end: 'end_turn', tool: 'tool_use', length: 'max_tokens' },
  genc: { end: 'STOP', tool: 'STOP', length: 'MAX_TOKENS' },
};

export interface ToolCall {
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
}

export interface Answer {
  text: string;
  call: ToolCall | null;
  stop: string | null | undefined;
  usage: { input: number; output: number } | null;
  model: string | undefined;
  /** Event names of a msgc stream, in order (empty otherwise). */
  events: string[];
}

export interface Question {
  user: string;
  system?: string;
  tools?: boolean;
  maxTokens?: number;
  stream: boolean;
  /** A tool call of an earlier answer, and what the tool returned: the question then continues that turn. */
  toolResult?: { call: ToolCall; result: string };
  /** Ask for an answer that is an instance of PERSON, in the family's structured-output field. */
  structured?: boolean;
}

/** The structured-output schema the matrix asks for. */
export const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 1 } },
  required: ['name', 'age'],
  additionalProperties: false,
};

const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export interface FamilyClients {
  oaic: OpenAI;
  msgc: Anthropic;
  genc: GoogleGenAI;
}

export function familyClients(key: string): FamilyClients {
  return { oaic: openaiClient(key), msgc: anthropicClient(key), genc: googleClient(key) };
}

async function askOaic(client: OpenAI, model: string, q: Question): Promise<Answer> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [];
  if (q.system) messages.push({ role: 'system', content: q.system });
  messages.push({ role: 'user', content: q.user });
  if (q.toolResult) {
    const { call, result } = q.toolResult;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: call.id!, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: call.id!, content: result });
  }
  const body = {
    model,
    messages,
    max_tokens: q.maxTokens ?? 200,
    ...(q.tools ? { tools: [{ type: 'function' as const, function: WEATHER }] } : {}),
    ...(q.structured ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'person', schema: PERSON, strict: true } } } : {}),
  };
  if (!q.stream) {
    const completion = await client.chat.completions.create(body);
    const choice = completion.choices[0]!;
    const call = choice.message.tool_calls?.[0];
    return {
      text: choice.message.content ?? '',
      call:
        call && call.type === 'function'
          ? { id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) as Record<string, unknown> }
          : null,
      stop: choice.finish_reason,
      usage: completion.usage ? { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens } : null,
      model: completion.model,
      events: [],
    };
  }
  const answer: Answer = { text: '', call: null, stop: null, usage: null, model: undefined, events: [] };
  let args = '';
  for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
    answer.model = chunk.model;
    const choice = chunk.choices[0];
    answer.text += choice?.delta?.content ?? '';
    const call = choice?.delta?.tool_calls?.[0];
    if (call?.function?.name) answer.call = { id: call.id, name: call.function.name, args: {} };
    args += call?.function?.arguments ?? '';
    if (choice?.finish_reason) answer.stop = choice.finish_reason;
    if (chunk.usage) answer.usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
  }
  if (answer.call) answer.call.args = JSON.parse(args) as Record<string, unknown>;
  return answer;
}

function fromMessage(message: Anthropic.Message, events: string[]): Answer {
  const use = message.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
  return {
    text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    call: use ? { id: use.id, name: use.name, args: use.input as Record<string, unknown> } : null,
    stop: message.stop_reason,
    usage: { input: message.usage.input_tokens, output: message.usage.output_tokens },
    model: message.model,
    events,
  };
}

async function askMsgc(client: Anthropic, model: string, q: Question): Promise<Answer> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: q.user }];
  if (q.toolResult) {
    const { call, result } = q.toolResult;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: call.id!, name: call.name, input: call.args }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id!, content: result }] });
  }
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: q.maxTokens ?? 200,
    messages,
    ...(q.system ? { system: [{ type: 'text' as const, text: q.system }] } : {}),
    ...(q.tools ? { tools: [{ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.parameters as Anthropic.Tool.InputSchema }] } : {}),
    ...(q.structured ? { output_config: { format: { type: 'json_schema' as const, schema: PERSON } } } : {}),
  };
  if (!q.stream) return fromMessage(await client.messages.create(body), []);
  const events: string[] = [];
  const stream = client.messages.stream(body);
  stream.on('streamEvent', (event) => events.push(event.type));
  return fromMessage(await stream.finalMessage(), events);
}

function absorb(answer: Answer, response: GenerateContentResponse): void {
  const candidate = response.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) {
    if (part.text) answer.text += part.text;
    if (part.functionCall) answer.call = { id: part.functionCall.id, name: part.functionCall.name!, args: part.functionCall.args ?? {} };
  }
  if (candidate?.finishReason) answer.stop = candidate.finishReason;
  const usage = response.usageMetadata;
  if (usage?.candidatesTokenCount !== undefined) answer.usage = { input: usage.promptTokenCount ?? 0, output: usage.candidatesTokenCount };
  answer.model = response.modelVersion;
}

async function askGenc(client: GoogleGenAI, model: string, q: Question): Promise<Answer> {
  const contents = [{ role: 'user', parts: [{ text: q.user }] }];
  if (q.toolResult) {
    const { call, result } = q.toolResult;
    contents.push({ role: 'model', parts: [{ functionCall: { id: call.id, name: call.name, args: call.args } }] } as never);
    contents.push({ role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { result } } }] } as never);
  }
  const config = {
    maxOutputTokens: q.maxTokens ?? 200,
    ...(q.system ? { systemInstruction: q.system } : {}),
    ...(q.structured ? { responseMimeType: 'application/json', responseJsonSchema: PERSON } : {}),
    ...(q.tools
      ? {
          tools: [
            { functionDeclarations: [{ ...WEATHER, parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] } }] },
          ],
        }
      : {}),
  };
  const answer: Answer = { text: '', call: null, stop: null, usage: null, model: undefined, events: [] };
  if (!q.stream) absorb(answer, await client.models.generateContent({ model, contents, config }));
  else for await (const chunk of await client.models.generateContentStream({ model, contents, config })) absorb(answer, chunk);
  return answer;
}

export function ask(clients: FamilyClients, family: ChatFamily, model: string, question: Question): Promise<Answer> {
  if (family === 'oaic') return askOaic(clients.oaic, model, question);
  if (family === 'msgc') return askMsgc(clients.msgc, model, question);
  return askGenc(clients.genc, model, question);
}

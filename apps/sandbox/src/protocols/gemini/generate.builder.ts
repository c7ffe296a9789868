// Pure builders for Gemini generateContent: a deterministic plan from the request (a functionCall when
// function declarations are offered, an answer quoting a functionResponse, or an echo of the last user
// text, plus a PNG part when image output is asked of an image model), rendered as one response or as
// the SSE chunks of streamGenerateContent.
import type { GencContent, GencPart, GenerateContentBody } from '@gateway/contracts';
import { buildPng } from '../../core/media.builder';
import { thinkAbout, type Thought } from '../../core/reasoning';
import { structuredAnswer, toolArgumentsFor, type AnswerFormat } from '../../core/structured-answer';
import { countTokens, truncateTokens } from '../../core/tokenizer';

const IMAGE_TOKENS = 85;

/** `thoughtsTokenCount` appears when the model thought; `totalTokenCount` includes it, `candidatesTokenCount` does not. */
export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
}

export interface GeneratePlan {
  /** Text tokens of the answer (empty for a function call). */
  pieces: string[];
  call: { name: string; args: Record<string, unknown> } | null;
  image: { mimeType: string; data: string } | null;
  finishReason: 'STOP' | 'MAX_TOKENS';
  usage: UsageMetadata;
  /** Thought about before answering; its text is shown only when thoughts were asked for. */
  thought: Thought | null;
  showThought: boolean;
}

function partTokens(part: GencPart): number {
  if (part.text !== undefined) return countTokens(part.text);
  if (part.inlineData || part.fileData) return IMAGE_TOKENS;
  if (part.functionCall) return countTokens(`${part.functionCall.name} ${JSON.stringify(part.functionCall.args ?? {})}`);
  if (part.functionResponse) return countTokens(JSON.stringify(part.functionResponse.response));
  return 0;
}

export function promptTokensOf(body: GenerateContentBody): number {
  let total = 0;
  for (const part of body.systemInstruction?.parts ?? []) total += partTokens(part);
  for (const content of body.contents) for (const part of content.parts) total += partTokens(part);
  for (const tool of body.tools ?? []) {
    for (const fn of tool.functionDeclarations ?? [])
      total += countTokens(fn.name) + countTokens(fn.description ?? '') + countTokens(JSON.stringify(fn.parameters ?? fn.parametersJsonSchema ?? {}));
  }
  return total;
}

function textOf(content: GencContent | undefined): string {
  return (content?.parts ?? [])
    .filter((part) => part.text !== undefined)
    .map((part) => part.text)
    .join(' ');
}

function answerFormatOf(config: GenerateContentBody['generationConfig']): AnswerFormat | null {
  if (config?.responseMimeType !== 'application/json') return null;
  const schema = config.responseJsonSchema ?? config.responseSchema;
  return schema ? { kind: 'json_schema', schema } : { kind: 'json_object' };
}

/** Thinking is on by default for these models, as for Gemini 2.5; a budget of 0 turns it off. */
function thoughtFor(config: GenerateContentBody['generationConfig'], said: string): Thought | null {
  const thinking = config?.thinkingConfig;
  if (!thinking || thinking.thinkingBudget === 0) return null;
  return thinkAbout(said, thinking.thinkingBudget !== undefined && thinking.thinkingBudget > 0 ? thinking.thinkingBudget : undefined);
}

export function planGenerate(body: GenerateContentBody, model: string): GeneratePlan {
  const last = body.contents[body.contents.length - 1]!;
  const lastUser = [...body.contents].reverse().find((content) => content.role !== 'model' && textOf(content) !== '');
  const said = textOf(lastUser);
  const response = last.parts.find((part) => part.functionResponse)?.functionResponse;
  const declarations = (body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  const calling = body.toolConfig?.functionCallingConfig;
  const promptTokenCount = promptTokensOf(body);
  const config = body.generationConfig;
  const thought = thoughtFor(config, said);
  const showThought = thought !== null && config?.thinkingConfig?.includeThoughts === true;
  const usage = (candidates: number): UsageMetadata => ({
    promptTokenCount,
    candidatesTokenCount: candidates,
    totalTokenCount: promptTokenCount + candidates + (thought?.tokens ?? 0),
    ...(thought ? { thoughtsTokenCount: thought.tokens } : {}),
  });
  if (!response && declarations.length > 0 && calling?.mode !== 'NONE') {
    const allowed = calling?.allowedFunctionNames ?? [];
    const fn = declarations.find((d) => allowed.includes(d.name)) ?? declarations[0]!;
    const args = toolArgumentsFor(fn.parametersJsonSchema ?? fn.parameters, said);
    const call = { name: fn.name, args };
    return { pieces: [], call, image: null, finishReason: 'STOP', usage: usage(countTokens(`${fn.name} ${JSON.stringify(args)}`)), thought, showThought };
  }
  let full = response ? `The ${response.name} tool returned: ${JSON.stringify(response.response)}` : `You said: ${said}`;
  const format = answerFormatOf(config);
  if (format) full = structuredAnswer(format, response ? full : said);
  for (const stop of format ? [] : (config?.stopSequences ?? [])) {
    const at = stop ? full.indexOf(stop) : -1;
    if (at >= 0) full = full.slice(0, at);
  }
  const { tokens, truncated } = truncateTokens(full, config?.maxOutputTokens);
  const wantsImage = config?.responseModalities?.includes('IMAGE') === true && model.includes('image');
  const image = wantsImage ? { mimeType: 'image/png', data: buildPng(said || model).toString('base64') } : null;
  const usageMetadata = usage(tokens.length + (image ? IMAGE_TOKENS : 0));
  return { pieces: tokens, call: null, image, finishReason: truncated ? 'MAX_TOKENS' : 'STOP', usage: usageMetadata, thought, showThought };
}

function candidate(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return { content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) };
}

export function generateBody(plan: GeneratePlan, meta: { id: string; model: string }): Record<string, unknown> {
  const parts: unknown[] = [];
  if (plan.showThought) parts.push({ text: plan.thought!.text, thought: true });
  if (plan.call) parts.push({ functionCall: plan.call, ...(plan.thought ? { thoughtSignature: plan.thought.signature } : {}) });
  else parts.push({ text: plan.pieces.join('') });
  if (plan.image) parts.push({ inlineData: plan.image });
  return { candidates: [candidate(parts, plan.finishReason)], usageMetadata: plan.usage, modelVersion: meta.model, responseId: meta.id };
}

/** Stream chunks: text a few tokens at a time, the image, then the last chunk with finishReason and usage. */
export function generateChunks(plan: GeneratePlan, meta: { id: string; model: string }): Record<string, unknown>[] {
  const chunk = (parts: unknown[], last: boolean): Record<string, unknown> => ({
    candidates: [candidate(parts, last ? plan.finishReason : undefined)],
    usageMetadata: last ? plan.usage : { promptTokenCount: plan.usage.promptTokenCount },
    modelVersion: meta.model,
    responseId: meta.id,
  });
  const chunks: Record<string, unknown>[] = [];
  if (plan.showThought) chunks.push(chunk([{ text: plan.thought!.text, thought: true }], false));
  for (let i = 0; i < plan.pieces.length; i += 2) chunks.push(chunk([{ text: plan.pieces.slice(i, i + 2).join('') }], false));
  if (plan.image) chunks.push(chunk([{ inlineData: plan.image }], false));
  chunks.push(chunk(plan.call ? [{ functionCall: plan.call }] : [{ text: '' }], true));
  return chunks;
}

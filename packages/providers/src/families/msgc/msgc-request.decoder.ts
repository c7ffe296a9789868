// msgc request → IR. tool_result blocks of a user turn become a tool message ahead of the turn's other parts.
import { GatewayError, type CountTokensRequest, type MessagesRequest, type MsgcMessage, type MsgcSystem, type MsgcToolResultBlock } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage, IrPart, IrReasoning, IrResponseFormat, IrTextPart, IrToolChoice, IrToolResultPart } from '../../ir/chat-ir.schema';
import { effortOfBudget } from '../../ir/reasoning-budget';

function cacheMarked(block: object): boolean {
  return 'cache_control' in block && block.cache_control != null;
}

function textPart(text: string, block: object): IrTextPart {
  return cacheMarked(block) ? { type: 'text', text, cache: true } : { type: 'text', text };
}

function systemParts(system: MsgcSystem | undefined): IrTextPart[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ type: 'text', text: system }];
  return system.map((block) => textPart(block.text, block));
}

function reasoning(body: MessagesRequest): IrReasoning | null {
  if (body.thinking?.type !== 'enabled') return null;
  const budget = body.thinking.budget_tokens;
  return { effort: effortOfBudget(budget), budgetTokens: budget, includeThoughts: true };
}

function responseFormat(body: MessagesRequest): IrResponseFormat | null {
  const format = body.output_config?.format ?? body.output_format;
  return format ? { type: 'json_schema', name: 'response', description: null, schema: format.schema, strict: true } : null;
}

function toolResultText(block: MsgcToolResultBlock, where: string): string {
  const value = block.content;
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  let text = '';
  for (let k = 0; k < value.length; k++) {
    const block = value[k]!;
    if (block.type !== 'text') throw GatewayError.invalid('only text is supported inside tool_result content', `${where}.content[${k}]`);
    text += block.text;
  }
  return text;
}

function decodeMessage(message: MsgcMessage, i: number, out: IrMessage[]): void {
  if (typeof message.content === 'string') {
    out.push({ role: message.role, parts: [{ type: 'text', text: message.content }] });
    return;
  }
  const parts: IrPart[] = [];
  const results: IrToolResultPart[] = [];
  for (let j = 0; j < message.content.length; j++) {
    const block = message.content[j]!;
    const where = `messages[${i}].content[${j}]`;
    switch (block.type) {
      case 'text':
        parts.push(textPart(block.text, block));
        break;
      case 'thinking':
      case 'redacted_thinking':
        if (message.role !== 'assistant') throw GatewayError.invalid(`${block.type} blocks belong to assistant turns`, where);
        parts.push(
          block.type === 'thinking'
            ? { type: 'reasoning', text: block.thinking, signature: block.signature, redacted: null }
            : { type: 'reasoning', text: '', signature: null, redacted: block.data },
        );
        break;
      case 'image':
        if (message.role !== 'user') throw GatewayError.invalid('image blocks belong to user turns', where);
        parts.push(
          block.source.type === 'url'
            ? { type: 'image', mediaType: null, data: null, url: block.source.url, param: `${where}.source.url` }
            : { type: 'image', mediaType: block.source.media_type, data: block.source.data, url: null, param: where },
        );
        break;
      case 'tool_use':
        if (message.role !== 'assistant') throw GatewayError.invalid('tool_use blocks belong to assistant turns', where);
        parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
        break;
      case 'tool_result':
        if (message.role !== 'user') throw GatewayError.invalid('tool_result blocks belong to user turns', where);
        results.push({
          type: 'tool_result',
          toolCallId: block.tool_use_id,
          name: null,
          content: toolResultText(block, where),
          isError: block.is_error === true,
        });
        break;
    }
  }
  if (results.length > 0) out.push({ role: 'tool', parts: results });
  if (parts.length > 0 || results.length === 0) out.push({ role: message.role, parts });
}

function toolChoice(choice: MessagesRequest['tool_choice']): IrToolChoice | null {
  if (!choice) return null;
  return { type: choice.type, name: choice.type === 'tool' ? (choice.name ?? null) : null };
}

export function fromMsgcRequest(body: MessagesRequest | CountTokensRequest): ChatIrRequest {
  const messages: IrMessage[] = [];
  for (let i = 0; i < body.messages.length; i++) decodeMessage(body.messages[i]!, i, messages);
  const full = 'max_tokens' in body ? (body as MessagesRequest) : null;
  return {
    family: 'msgc',
    model: body.model,
    system: systemParts(body.system),
    messages,
    tools: (body.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.input_schema,
      ...(cacheMarked(tool) ? { cache: true } : {}),
    })),
    toolChoice: toolChoice(body.tool_choice),
    parallelToolCalls: body.tool_choice?.disable_parallel_tool_use === true ? false : null,
    responseFormat: full ? responseFormat(full) : null,
    reasoning: full ? reasoning(full) : null,
    maxTokens: full?.max_tokens ?? null,
    temperature: full?.temperature ?? null,
    topP: full?.top_p ?? null,
    topK: full?.top_k ?? null,
    presencePenalty: null,
    frequencyPenalty: null,
    stop: full?.stop_sequences ?? [],
    responseModalities: null,
    safetySettings: null,
    user: full?.metadata?.user_id ?? null,
    stream: full?.stream === true,
  };
}

// Pure builders for OpenAI's assistants API (v2): the objects (assistant, thread, message, run) in OpenAI's
// shapes, and a run answered the way the chat builder answers: the thread's messages (with the run's or the
// assistant's instructions as the system message) planned as one chat request, the canned answer appended
// as an assistant message, the run completed with that plan's usage; streamed as OpenAI's event sequence.
import { planChat, type ChatPlan } from './chat.builder';
import type { ChatMessage } from './openai.schemas';

export interface TextContent {
  type: 'text';
  text: { value: string; annotations: unknown[] };
}

export interface SandboxMessage {
  id: string;
  object: 'thread.message';
  created_at: number;
  thread_id: string;
  role: 'user' | 'assistant';
  content: TextContent[];
  assistant_id: string | null;
  run_id: string | null;
  attachments: unknown[];
  metadata: Record<string, string>;
  status: 'in_progress' | 'completed';
  completed_at: number | null;
  incomplete_at: null;
  incomplete_details: null;
}

export interface SandboxRun {
  id: string;
  object: 'thread.run';
  created_at: number;
  thread_id: string;
  assistant_id: string;
  status: 'queued' | 'in_progress' | 'completed' | 'incomplete';
  model: string;
  instructions: string;
  tools: unknown[];
  metadata: Record<string, string>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  started_at: number | null;
  completed_at: number | null;
  expires_at: number | null;
  cancelled_at: null;
  failed_at: null;
  last_error: null;
  required_action: null;
  incomplete_details: { reason: 'max_prompt_tokens' } | null;
  max_prompt_tokens: number | null;
  max_completion_tokens: number | null;
  temperature: number;
  top_p: number;
  truncation_strategy: { type: 'auto'; last_messages: null };
  response_format: 'auto';
  tool_choice: 'auto';
  parallel_tool_calls: boolean;
}

/** A message's content as the API takes it: a string, or parts of which the text ones count here. */
export type ContentInput = string | Array<{ type: string; text?: unknown }>;

export function textContent(content: ContentInput): TextContent[] {
  const texts = typeof content === 'string' ? [content] : content.flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []));
  return texts.map((value) => ({ type: 'text', text: { value, annotations: [] } }));
}

export function messageObject(
  meta: { id: string; createdAt: number; threadId: string },
  role: 'user' | 'assistant',
  content: TextContent[],
  extra: { assistantId?: string; runId?: string; metadata?: Record<string, string> } = {},
): SandboxMessage {
  return {
    id: meta.id,
    object: 'thread.message',
    created_at: meta.createdAt,
    thread_id: meta.threadId,
    role,
    content,
    assistant_id: extra.assistantId ?? null,
    run_id: extra.runId ?? null,
    attachments: [],
    metadata: extra.metadata ?? {},
    status: 'completed',
    completed_at: meta.createdAt,
    incomplete_at: null,
    incomplete_details: null,
  };
}

export interface RunInput {
  model: string;
  instructions: string;
  /** The thread's messages, oldest first, including any the run adds. */
  messages: SandboxMessage[];
  maxCompletionTokens?: number | null;
}

/** The run's answer, planned as a chat completion over the thread. */
export function planRun(input: RunInput): Extract<ChatPlan, { kind: 'text' }> {
  const messages: ChatMessage[] = [];
  if (input.instructions) messages.push({ role: 'system', content: input.instructions });
  for (const message of input.messages) messages.push({ role: message.role, content: message.content.map((part) => part.text.value).join('\n') });
  if (!messages.some((message) => message.role === 'user')) messages.push({ role: 'user', content: '' });
  const plan = planChat({ model: input.model, messages, max_completion_tokens: input.maxCompletionTokens ?? undefined });
  // No tools are offered, so the plan is always text.
  if (plan.kind !== 'text') throw new Error('a run plans text only');
  return plan;
}

export function runObject(
  meta: { id: string; createdAt: number; threadId: string; assistantId: string },
  input: RunInput & { tools: unknown[]; metadata: Record<string, string>; maxPromptTokens?: number | null },
  status: SandboxRun['status'],
  plan: Extract<ChatPlan, { kind: 'text' }> | null,
): SandboxRun {
  const done = status === 'completed';
  return {
    id: meta.id,
    object: 'thread.run',
    created_at: meta.createdAt,
    thread_id: meta.threadId,
    assistant_id: meta.assistantId,
    status,
    model: input.model,
    instructions: input.instructions,
    tools: input.tools,
    metadata: input.metadata,
    usage:
      done && plan ? { prompt_tokens: plan.usage.prompt_tokens, completion_tokens: plan.usage.completion_tokens, total_tokens: plan.usage.total_tokens } : null,
    started_at: status === 'queued' ? null : meta.createdAt,
    completed_at: done ? meta.createdAt : null,
    expires_at: done ? null : meta.createdAt + 600,
    cancelled_at: null,
    failed_at: null,
    last_error: null,
    required_action: null,
    incomplete_details: null,
    max_prompt_tokens: input.maxPromptTokens ?? null,
    max_completion_tokens: input.maxCompletionTokens ?? null,
    temperature: 1,
    top_p: 1,
    truncation_strategy: { type: 'auto', last_messages: null },
    response_format: 'auto',
    tool_choice: 'auto',
    parallel_tool_calls: true,
  };
}

/**
 * A run whose prompt is above its `max_prompt_tokens`, as OpenAI ends it: `incomplete`, having read no more
 * prompt tokens than the cap and written nothing.
 */
export function runOverPromptCap(run: SandboxRun): SandboxRun | null {
  const cap = run.max_prompt_tokens;
  if (cap === null || !run.usage || run.usage.prompt_tokens <= cap) return null;
  return {
    ...run,
    status: 'incomplete',
    incomplete_details: { reason: 'max_prompt_tokens' },
    usage: { prompt_tokens: cap, completion_tokens: 0, total_tokens: cap },
  };
}

/** The events of a streamed run that ended incomplete before writing anything. */
export function incompleteRunEvents(run: SandboxRun): Array<{ event: string; data: unknown }> {
  const running = runInProgress(run);
  const queued = { ...running, status: 'queued', started_at: null };
  return [
    { event: 'thread.run.created', data: queued },
    { event: 'thread.run.queued', data: queued },
    { event: 'thread.run.in_progress', data: running },
    { event: 'thread.run.incomplete', data: run },
    { event: 'done', data: '[DONE]' },
  ];
}

/** A completed run as it read while it was still working: in progress, no usage yet. */
export function runInProgress(run: SandboxRun): SandboxRun {
  return { ...run, status: 'in_progress', usage: null, started_at: run.created_at, completed_at: null, expires_at: run.created_at + 600 };
}

/** The events of a streamed run, in OpenAI's order, ending with `done`. */
export function runEvents(run: SandboxRun, answer: SandboxMessage, plan: Extract<ChatPlan, { kind: 'text' }>): Array<{ event: string; data: unknown }> {
  const running = runInProgress(run);
  const queued = { ...running, status: 'queued', started_at: null };
  const started = { ...answer, status: 'in_progress', content: [], completed_at: null };
  return [
    { event: 'thread.run.created', data: queued },
    { event: 'thread.run.queued', data: queued },
    { event: 'thread.run.in_progress', data: running },
    { event: 'thread.message.created', data: started },
    { event: 'thread.message.in_progress', data: started },
    ...plan.pieces.map((piece) => ({
      event: 'thread.message.delta',
      data: { id: answer.id, object: 'thread.message.delta', delta: { content: [{ index: 0, type: 'text', text: { value: piece, annotations: [] } }] } },
    })),
    { event: 'thread.message.completed', data: answer },
    { event: 'thread.run.completed', data: run },
    { event: 'done', data: '[DONE]' },
  ];
}

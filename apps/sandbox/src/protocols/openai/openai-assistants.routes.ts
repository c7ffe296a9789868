// OpenAI's assistants API (v2) under /openai/v1, in memory: assistants, threads, messages and runs. Every
// call needs `OpenAI-Beta: assistants=v2`, as at OpenAI. A run completes at once with a canned answer
// (assistants.builder), or streams OpenAI's event sequence when asked to; with the `run=ms` control it
// stays in progress that long (its stream pauses after `thread.run.in_progress`) and completes whether or
// not anyone is still listening, as OpenAI's runs do.
import { randomUUID } from 'node:crypto';
import { parseOrThrow } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ControlError, resolveRunMs } from '../../core/controls';
import { dataFrame, eventFrame, type SsePause } from '../../core/exchange';
import type { ProtocolDeps } from '../../core/protocol';
import {
  incompleteRunEvents,
  messageObject,
  planRun,
  runEvents,
  runInProgress,
  runObject,
  runOverPromptCap,
  textContent,
  type SandboxMessage,
  type SandboxRun,
} from './assistants.builder';
import { renderOpenaiError } from './openai.errors';

/** Objects kept per kind before the oldest go (the sandbox runs for days under benchmarks). */
const KEPT = 10_000;

const Metadata = z.record(z.string(), z.string()).nullish();
const Content = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.unknown().optional() }))]);
const Message = z.looseObject({ role: z.enum(['user', 'assistant']), content: Content, metadata: Metadata });
const AssistantBody = z.looseObject({
  model: z.string().min(1),
  name: z.string().nullish(),
  description: z.string().nullish(),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  metadata: Metadata,
});
const ThreadBody = z.looseObject({ messages: z.array(Message).optional(), metadata: Metadata }).optional();
const RunBody = z.looseObject({
  assistant_id: z.string().min(1),
  model: z.string().nullish(),
  instructions: z.string().nullish(),
  additional_instructions: z.string().nullish(),
  additional_messages: z.array(Message).nullish(),
  stream: z.boolean().nullish(),
  max_prompt_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  metadata: Metadata,
});
const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: z.string().optional(),
  before: z.string().optional(),
  run_id: z.string().optional(),
});

type Assistant = z.infer<typeof AssistantBody> & { id: string; object: 'assistant'; created_at: number };
interface Thread {
  id: string;
  object: 'thread';
  created_at: number;
  metadata: Record<string, string>;
  tool_resources: Record<string, unknown>;
}

const now = (): number => Math.floor(Date.now() / 1000);
const newId = (prefix: string): string => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** A run still working: when it completes, and the answer it then adds to its thread. */
interface Working {
  threadId: string;
  completesAt: number;
  answer: SandboxMessage;
}

/** A Map that forgets its oldest entries past KEPT. */
class Shelf<T> extends Map<string, T> {
  override set(key: string, value: T): this {
    super.set(key, value);
    if (this.size > KEPT) this.delete(this.keys().next().value!);
    return this;
  }
}

/** One page of `items` (oldest first) by OpenAI's cursor rules. */
function page<T extends { id: string }>(items: T[], query: z.infer<typeof ListQuery>) {
  let ordered = query.order === 'desc' ? [...items].reverse() : items;
  if (query.after) ordered = ordered.slice(ordered.findIndex((item) => item.id === query.after) + 1);
  if (query.before) {
    const end = ordered.findIndex((item) => item.id === query.before);
    ordered = end < 0 ? [] : ordered.slice(0, end);
  }
  const data = ordered.slice(0, query.limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: ordered.length > data.length };
}

export function registerOpenaiAssistantsRoutes(app: FastifyInstance, { exchange }: ProtocolDeps): void {
  const assistants = new Shelf<Assistant>();
  const threads = new Shelf<Thread>();
  const messages = new Shelf<SandboxMessage[]>();
  const runs = new Shelf<SandboxRun[]>();
  const working = new Shelf<Working>();

  /** Completes the thread's runs whose time has come: their answers join the thread. */
  const settle = (threadId: string): void => {
    const now = Date.now();
    for (const [runId, run] of working) {
      if (run.threadId !== threadId || run.completesAt > now) continue;
      working.delete(runId);
      messages.get(threadId)?.push(run.answer);
    }
  };
  /** A run as it reads now: in progress while it works, then as it completed. */
  const view = (run: SandboxRun): SandboxRun => (working.has(run.id) ? runInProgress(run) : run);

  const notFound = (reply: FastifyReply, kind: string, id: string) =>
    reply.code(404).send(renderOpenaiError(404, `No ${kind} found with id '${id}'.`, null, null));

  const addMessage = (threadId: string, input: z.infer<typeof Message>, extra: { assistantId?: string; runId?: string } = {}): SandboxMessage => {
    const message = messageObject({ id: newId('msg'), createdAt: now(), threadId }, input.role, textContent(input.content), {
      ...extra,
      metadata: input.metadata ?? {},
    });
    messages.get(threadId)!.push(message);
    return message;
  };

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (request.headers['openai-beta'] === 'assistants=v2') return;
      const message =
        "You must provide the 'OpenAI-Beta' header to access the Assistants API. Please try again by setting the header 'OpenAI-Beta: assistants=v2'.";
      return reply.code(400).send(renderOpenaiError(400, message, null, 'invalid_beta'));
    });

    scope.post('/assistants', async (request) => {
      const body = parseOrThrow(AssistantBody, request.body);
      const assistant: Assistant = {
        name: null,
        description: null,
        instructions: null,
        tools: [],
        ...body,
        metadata: body.metadata ?? {},
        id: newId('asst'),
        object: 'assistant',
        created_at: now(),
      };
      assistants.set(assistant.id, assistant);
      return assistant;
    });

    scope.get('/assistants', async (request) => page([...assistants.values()], parseOrThrow(ListQuery, request.query)));

    scope.get<{ Params: { id: string } }>(
      '/assistants/:id',
      async (request, reply) => assistants.get(request.params.id) ?? notFound(reply, 'assistant', request.params.id),
    );

    scope.post<{ Params: { id: string } }>('/assistants/:id', async (request, reply) => {
      const found = assistants.get(request.params.id);
      if (!found) return notFound(reply, 'assistant', request.params.id);
      const updated = { ...found, ...parseOrThrow(AssistantBody.partial(), request.body), id: found.id, object: found.object, created_at: found.created_at };
      assistants.set(found.id, updated);
      return updated;
    });

    scope.delete<{ Params: { id: string } }>('/assistants/:id', async (request, reply) => {
      if (!assistants.delete(request.params.id)) return notFound(reply, 'assistant', request.params.id);
      return { id: request.params.id, object: 'assistant.deleted', deleted: true };
    });

    scope.post('/threads', async (request) => {
      const body = parseOrThrow(ThreadBody, request.body) ?? {};
      const thread: Thread = { id: newId('thread'), object: 'thread', created_at: now(), metadata: body.metadata ?? {}, tool_resources: {} };
      threads.set(thread.id, thread);
      messages.set(thread.id, []);
      runs.set(thread.id, []);
      for (const message of body.messages ?? []) addMessage(thread.id, message);
      return thread;
    });

    scope.get<{ Params: { id: string } }>(
      '/threads/:id',
      async (request, reply) => threads.get(request.params.id) ?? notFound(reply, 'thread', request.params.id),
    );

    scope.post<{ Params: { id: string } }>('/threads/:id', async (request, reply) => {
      const found = threads.get(request.params.id);
      if (!found) return notFound(reply, 'thread', request.params.id);
      const body = parseOrThrow(z.looseObject({ metadata: Metadata }), request.body);
      const updated = { ...found, metadata: body.metadata ?? found.metadata };
      threads.set(found.id, updated);
      return updated;
    });

    scope.delete<{ Params: { id: string } }>('/threads/:id', async (request, reply) => {
      if (!threads.delete(request.params.id)) return notFound(reply, 'thread', request.params.id);
      messages.delete(request.params.id);
      runs.delete(request.params.id);
      return { id: request.params.id, object: 'thread.deleted', deleted: true };
    });

    scope.post<{ Params: { id: string } }>('/threads/:id/messages', async (request, reply) => {
      if (!threads.has(request.params.id)) return notFound(reply, 'thread', request.params.id);
      return addMessage(request.params.id, parseOrThrow(Message, request.body));
    });

    scope.get<{ Params: { id: string } }>('/threads/:id/messages', async (request, reply) => {
      settle(request.params.id);
      const all = messages.get(request.params.id);
      if (!all) return notFound(reply, 'thread', request.params.id);
      const query = parseOrThrow(ListQuery, request.query);
      return page(query.run_id ? all.filter((message) => message.run_id === query.run_id) : all, query);
    });

    scope.get<{ Params: { id: string } }>('/threads/:id/runs', async (request, reply) => {
      settle(request.params.id);
      const all = runs.get(request.params.id);
      if (!all) return notFound(reply, 'thread', request.params.id);
      return page(all.map(view), parseOrThrow(ListQuery, request.query));
    });

    scope.get<{ Params: { id: string; runId: string } }>('/threads/:id/runs/:runId', async (request, reply) => {
      settle(request.params.id);
      const all = runs.get(request.params.id);
      if (!all) return notFound(reply, 'thread', request.params.id);
      const run = all.find((candidate) => candidate.id === request.params.runId);
      return run ? view(run) : notFound(reply, 'run', request.params.runId);
    });

    scope.post<{ Params: { id: string } }>('/threads/:id/runs', async (request, reply) => {
      const threadId = request.params.id;
      if (!threads.has(threadId)) return notFound(reply, 'thread', threadId);
      const body = parseOrThrow(RunBody, request.body);
      const assistant = assistants.get(body.assistant_id);
      if (!assistant) return notFound(reply, 'assistant', body.assistant_id);
      const model = body.model ?? assistant.model;
      let runMs: number;
      try {
        runMs = resolveRunMs(request.headers, model);
      } catch (error) {
        if (!(error instanceof ControlError)) throw error;
        return reply.code(400).send(renderOpenaiError(400, error.message, error.param, 'invalid_value'));
      }
      const controls = await exchange.gate(request, reply, model, renderOpenaiError, { stream: body.stream === true });
      if (!controls) return reply;
      settle(threadId);
      for (const message of body.additional_messages ?? []) addMessage(threadId, message);
      const instructions = [body.instructions ?? assistant.instructions ?? '', body.additional_instructions ?? ''].filter(Boolean).join('\n');
      const input = {
        model,
        instructions,
        messages: messages.get(threadId)!,
        maxCompletionTokens: body.max_completion_tokens,
        maxPromptTokens: body.max_prompt_tokens,
        tools: assistant.tools ?? [],
        metadata: body.metadata ?? {},
      };
      const plan = planRun(input);
      const meta = { id: newId('run'), createdAt: now(), threadId, assistantId: assistant.id };
      const run = runObject(meta, input, 'completed', plan);
      const incomplete = runOverPromptCap(run);
      if (incomplete) {
        // The prompt is above the run's max_prompt_tokens: OpenAI ends the run incomplete, billing no more than the cap.
        exchange.stats.addTokens(incomplete.usage!.prompt_tokens, 0);
        runs.get(threadId)!.push(incomplete);
        if (body.stream !== true) return incomplete;
        const frames = incompleteRunEvents(incomplete).map(({ event, data }) =>
          event === 'done' ? `event: done\n${dataFrame('[DONE]')}` : eventFrame(event, data),
        );
        await exchange.sendSse(request, reply, frames, controls);
        return reply;
      }
      exchange.stats.addTokens(plan.usage.prompt_tokens, plan.usage.completion_tokens);
      const extra = { assistantId: assistant.id, runId: run.id };
      let answer: SandboxMessage;
      if (runMs > 0) {
        // The answer joins the thread when the run completes.
        answer = messageObject({ id: newId('msg'), createdAt: now(), threadId }, 'assistant', textContent(plan.text), { ...extra, metadata: {} });
        working.set(run.id, { threadId, completesAt: Date.now() + runMs, answer });
      } else {
        answer = addMessage(threadId, { role: 'assistant', content: plan.text, metadata: {} }, extra);
      }
      runs.get(threadId)!.push(run);
      if (body.stream !== true) return view(run);
      const events = runEvents(run, answer, plan);
      const frames: Array<string | SsePause> = events.map(({ event, data }) =>
        event === 'done' ? `event: done\n${dataFrame('[DONE]')}` : eventFrame(event, data),
      );
      // The run works between its start and its message.
      if (runMs > 0) frames.splice(events.findIndex(({ event }) => event === 'thread.run.in_progress') + 1, 0, { pauseMs: runMs });
      await exchange.sendSse(request, reply, frames, controls);
      return reply;
    });
  });
}

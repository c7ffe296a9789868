import {
  AssistantCreateRequest,
  AssistantUpdateRequest,
  GatewayError,
  MessageCreateRequest,
  ThreadCreateRequest,
  ThreadUpdateRequest,
  UpstreamAssistantsObject,
  UpstreamList,
  parseOrThrow,
  type AssistantList,
  type AssistantsOp,
} from '@gateway/contracts';
import { withPublicModel } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { AssistantObjectsRepository } from './assistant-objects.repository';
import { AssistantStorage } from './assistant-storage';
import type { AssistantsRequest } from './assistants-request';
import { AssistantsRouting } from './assistants-routing.service';
import { AssistantsUpstream } from './assistants-upstream';
import { RunsService } from './runs.service';
import { assistantSizeOf, NO_SIZE, storedSizeOf } from './stored-size';

function required(id: string | undefined, param: string): string {
  if (!id) throw GatewayError.invalid(`Missing required parameter: '${param}'.`, param);
  return id;
}

/**
 * Assistants, threads and messages passed through to the channel that holds them. New assistants and
 * threads are recorded under the upstream's id with their tenant and channel; every call naming one
 * reaches that channel, for that tenant only. Model names cross as the catalog's ids, swapped for the
 * channel's upstream names on the way up and back on the way down.
 */
@Injectable()
export class AssistantsService {
  constructor(
    private readonly routing: AssistantsRouting,
    private readonly objects: AssistantObjectsRepository,
    private readonly upstream: AssistantsUpstream,
    private readonly runs: RunsService,
    private readonly storage: AssistantStorage,
  ) {}

  run(call: AssistantsRequest, signal: AbortSignal): Promise<unknown> {
    const op: AssistantsOp = call.op;
    switch (op) {
      case 'assistants.create':
        return this.createAssistant(call, signal);
      case 'assistants.list':
        return this.listAssistants(call);
      case 'assistants.get':
      case 'assistants.update':
      case 'assistants.delete':
        return this.assistant(op, call, signal);
      case 'threads.create':
        return this.createThread(call, signal);
      case 'threads.get':
      case 'threads.update':
      case 'threads.delete':
      case 'threads.messages.create':
      case 'threads.messages.list':
        return this.thread(op, call, signal);
      case 'threads.runs.create':
        return this.runs.create(call, signal);
      case 'threads.runs.list':
        return this.runs.list(call, signal);
    }
  }

  private async createAssistant(call: AssistantsRequest, signal: AbortSignal): Promise<unknown> {
    const body = parseOrThrow(AssistantCreateRequest, call.body);
    const { channels } = await this.routing.forModel(call, body.model, call.op);
    const stored = assistantSizeOf(body);
    return this.storage.within(call.tenantId, stored.bytes, async () => {
      const { channel, answer } = await this.upstream.json({ op: call.op, body }, channels, UpstreamAssistantsObject, signal);
      const assistant = withPublicModel(answer, channel.upstreamModel, body.model);
      const home = { modelId: body.model, channelId: channel.id, providerId: channel.providerId };
      await this.objects.record({ id: assistant.id, kind: 'assistant', tenantId: call.tenantId, ...home, snapshot: assistant, stored });
      return assistant;
    });
  }

  private async listAssistants(call: AssistantsRequest): Promise<AssistantList> {
    const { data, hasMore } = await this.objects.listAssistants(call.tenantId, call.query);
    const ids = data.map((assistant) => (typeof assistant.id === 'string' ? assistant.id : null));
    return { object: 'list', data, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null, has_more: hasMore };
  }

  private async assistant(op: 'assistants.get' | 'assistants.update' | 'assistants.delete', call: AssistantsRequest, signal: AbortSignal): Promise<unknown> {
    const assistantId = required(call.assistantId, 'assistant_id');
    const owned = await this.routing.owned(call.tenantId, 'assistant', assistantId);
    let { home, channel } = owned;
    let body: Record<string, unknown> | undefined;
    // New instructions or tools count in full until the upstream's answer says what the assistant now holds.
    let claimed = NO_SIZE;
    if (op === 'assistants.update') {
      const update = parseOrThrow(AssistantUpdateRequest, call.body);
      body = update;
      if (update.instructions !== undefined || update.tools !== undefined) claimed = assistantSizeOf(update);
      if (update.model !== undefined) {
        // Another model, on the same upstream account (the assistant lives there).
        ({ channel } = await this.routing.onProvider(call, update.model, home.providerId, op, `assistant '${assistantId}'`));
        home = { modelId: update.model, channelId: channel.id, providerId: channel.providerId };
      }
    }
    return this.storage.within(call.tenantId, claimed.bytes, async () => {
      const { answer } = await this.upstream.json({ op, assistantId, body }, [channel], UpstreamAssistantsObject, signal);
      if (op === 'assistants.delete') {
        await this.objects.remove(assistantId);
        return answer;
      }
      const assistant = withPublicModel(answer, channel.upstreamModel, home.modelId);
      await this.objects.update(assistantId, op === 'assistants.update' ? home : null, assistant);
      if (claimed !== NO_SIZE)
        await this.objects.replaceStored(
          call.tenantId,
          assistantId,
          assistantSizeOf(assistant as { instructions?: string | null; tools?: unknown }),
          claimed.bytes,
        );
      return assistant;
    });
  }

  private async createThread(call: AssistantsRequest, signal: AbortSignal): Promise<unknown> {
    const body = parseOrThrow(ThreadCreateRequest, call.body);
    const { home, channel } = await this.routing.forNewThread(call.tenantId);
    const stored = body.messages ? storedSizeOf(body.messages) : NO_SIZE;
    return this.storage.within(call.tenantId, stored.bytes, async () => {
      const { answer } = await this.upstream.json({ op: call.op, body }, [channel], UpstreamAssistantsObject, signal);
      await this.objects.record({ id: answer.id, kind: 'thread', tenantId: call.tenantId, ...home, stored });
      return answer;
    });
  }

  private async thread(
    op: Exclude<AssistantsOp, `assistants.${string}` | 'threads.create' | `threads.runs.${string}`>,
    call: AssistantsRequest,
    signal: AbortSignal,
  ) {
    const threadId = required(call.threadId, 'thread_id');
    const { channel } = await this.routing.owned(call.tenantId, 'thread', threadId);
    const body =
      op === 'threads.update'
        ? parseOrThrow(ThreadUpdateRequest, call.body)
        : op === 'threads.messages.create'
          ? parseOrThrow(MessageCreateRequest, call.body)
          : undefined;
    const query = op === 'threads.messages.list' ? call.query : undefined;
    // A new message is part of every later run's prompt: the thread's stored size grows by it.
    const added = op === 'threads.messages.create' ? storedSizeOf([body]) : NO_SIZE;
    return this.storage.within(call.tenantId, added.bytes, async () => {
      const { answer } = await this.upstream.json(
        { op, threadId, body, query },
        [channel],
        op === 'threads.messages.list' ? UpstreamList : UpstreamAssistantsObject,
        signal,
      );
      if (op === 'threads.delete') await this.objects.remove(threadId);
      if (added !== NO_SIZE) await this.objects.growStored(threadId, added);
      return answer;
    });
  }
}

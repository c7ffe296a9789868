import {
  AssistantIdParam,
  SUBJECTS,
  ThreadIdParam,
  parseOrThrow,
  type AssistantsCallPayload,
  type AssistantsListQuery,
  type AssistantsOp,
} from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { callerOf, OaicRelayService } from '../oaic/oaic-relay.service';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';

const SUBJECT = SUBJECTS.chat.oaic.assistants;

/**
 * The assistants pass-through routes (assistants, threads, messages, runs): each names its operation and
 * the ids in its path and hands the request to the chat service, which owns routing and ownership. A
 * streamed run is relayed as SSE, event by event.
 */
@Injectable()
export class AssistantsRoutes {
  constructor(private readonly relay: OaicRelayService) {}

  @RouteHandler('oaic.assistants.create')
  createAssistant(request: RouteRequest) {
    return this.send('assistants.create', request);
  }

  @RouteHandler('oaic.assistants.list')
  listAssistants(request: RouteRequest) {
    return this.send('assistants.list', request);
  }

  @RouteHandler('oaic.assistants.get')
  getAssistant(request: RouteRequest) {
    return this.send('assistants.get', request);
  }

  @RouteHandler('oaic.assistants.update')
  updateAssistant(request: RouteRequest) {
    return this.send('assistants.update', request);
  }

  @RouteHandler('oaic.assistants.delete')
  deleteAssistant(request: RouteRequest) {
    return this.send('assistants.delete', request);
  }

  @RouteHandler('oaic.threads.create')
  createThread(request: RouteRequest) {
    return this.send('threads.create', request);
  }

  @RouteHandler('oaic.threads.get')
  getThread(request: RouteRequest) {
    return this.send('threads.get', request);
  }

  @RouteHandler('oaic.threads.update')
  updateThread(request: RouteRequest) {
    return this.send('threads.update', request);
  }

  @RouteHandler('oaic.threads.delete')
  deleteThread(request: RouteRequest) {
    return this.send('threads.delete', request);
  }

  @RouteHandler('oaic.threads.messages.create')
  createMessage(request: RouteRequest) {
    return this.send('threads.messages.create', request);
  }

  @RouteHandler('oaic.threads.messages.list')
  listMessages(request: RouteRequest) {
    return this.send('threads.messages.list', request);
  }

  @RouteHandler('oaic.threads.runs.create')
  createRun(request: RouteRequest) {
    return this.send('threads.runs.create', request);
  }

  @RouteHandler('oaic.threads.runs.list')
  listRuns(request: RouteRequest) {
    return this.send('threads.runs.list', request);
  }

  private async send(op: AssistantsOp, request: RouteRequest): Promise<unknown> {
    const { assistant_id: assistantId, thread_id: threadId } = request.params;
    // Only POSTs carry a body; a large one travels by claim check like any oaic body.
    const caller = request.route.method === 'POST' ? await this.relay.payload(request) : callerOf(request);
    const payload: AssistantsCallPayload = {
      ...caller,
      op,
      ...(assistantId !== undefined ? { assistantId: parseOrThrow(AssistantIdParam, assistantId, 'assistant_id') } : {}),
      ...(threadId !== undefined ? { threadId: parseOrThrow(ThreadIdParam, threadId, 'thread_id') } : {}),
      query: (request.route.query ? request.query : {}) as AssistantsListQuery,
    };
    const streamed = op === 'threads.runs.create' && (request.body as { stream?: unknown } | undefined)?.stream === true;
    return streamed ? this.relay.sse(SUBJECT, request, payload) : this.relay.json(SUBJECT, request, payload);
  }
}

import { GatewayError, RunCreateRequest, UpstreamList, UpstreamRun, parseOrThrow, type CatalogChannel } from '@gateway/contracts';
import { parseUpstreamBody, readBodyJson, withPublicModel, type UpstreamResponse } from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import type { StreamFrames } from '../pipeline/chat-codec';
import { publicModelRewriter } from '../pipeline/stream-delta';
import { eventStreamOf, relayStream, type StreamLifecycle } from '../pipeline/upstream-call.service';
import { AssistantObjectsRepository, type RunRecord } from './assistant-objects.repository';
import { AssistantsRouting } from './assistants-routing.service';
import { AssistantsUpstream } from './assistants-upstream';
import type { AssistantsRequest } from './assistants-request';
import { capRunOutput, capRunPrompt, RunBilling, type RunHold } from './run-billing';
import { AssistantStorage } from './assistant-storage';
import { NO_SIZE, plusSize, storedSizeOf } from './stored-size';

const DONE = 'event: done\ndata: [DONE]\n\n';

/** Everything known of a run being started, to record it once the upstream names it. */
interface Start {
  call: AssistantsRequest;
  threadId: string;
  modelId: string;
  channel: CatalogChannel;
  hold: RunHold;
}

function readRun(data: string): UpstreamRun | null {
  try {
    const parsed = UpstreamRun.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Runs on a thread: started on the thread's channel with an assistant of the same upstream account,
 * held for and metered (see RunBilling); a streamed run relays the upstream's event stream event by
 * event as it arrives, recording the run from its first run event and its usage from its last.
 */
@Injectable()
export class RunsService {
  constructor(
    private readonly routing: AssistantsRouting,
    private readonly objects: AssistantObjectsRepository,
    private readonly upstream: AssistantsUpstream,
    private readonly billing: RunBilling,
    private readonly storage: AssistantStorage,
    @Inject(CHAT_ENV) private readonly env: ChatEnv,
  ) {}

  async create(call: AssistantsRequest, signal: AbortSignal): Promise<unknown> {
    const threadId = call.threadId ?? '';
    const body = parseOrThrow(RunCreateRequest, call.body);
    const thread = await this.routing.owned(call.tenantId, 'thread', threadId);
    const assistant = await this.objects.find(call.tenantId, 'assistant', body.assistant_id);
    if (!assistant) throw GatewayError.notFound(`No assistant found with id '${body.assistant_id}'.`, 'assistant_id');
    if (assistant.providerId !== thread.providerId) {
      throw GatewayError.invalid(
        `The assistant '${body.assistant_id}' lives on another upstream than thread '${threadId}'; create the thread after the assistant.`,
        'assistant_id',
      );
    }
    const modelId = body.model ?? assistant.modelId;
    const { route, channel } = await this.routing.onProvider(call, modelId, thread.providerId, call.op, `thread '${threadId}'`);
    capRunOutput(body, route.model.defaultMaxTokens);
    // What the upstream holds for this run's prompt: the thread's messages and the assistant's instructions.
    const sizes = await this.objects.storedSizes(call.tenantId, [threadId, assistant.id]);
    capRunPrompt(body, plusSize(sizes.get(threadId) ?? NO_SIZE, sizes.get(assistant.id) ?? NO_SIZE));
    // The run's own messages join the thread, and so does its answer (counted at its cap until its usage says).
    const added = body.additional_messages ? storedSizeOf(body.additional_messages) : NO_SIZE;
    const served = await this.storage.within(call.tenantId, added.bytes, async () => {
      const hold = await this.billing.hold(call, route.model, body);
      try {
        const { response } = await this.upstream.open({ op: call.op, threadId, body, stream: body.stream === true }, [channel], signal);
        await this.objects.growStored(threadId, { bytes: added.bytes, tokens: added.tokens + BigInt(hold.answerCap ?? 0) });
        return { response, hold };
      } catch (error) {
        await this.billing.refused(call, modelId, channel.id, hold, error, call.note);
        throw error;
      }
    });
    const { hold } = served;
    const start: Start = { call, threadId, modelId, channel, hold };
    if (body.stream === true) return this.relay(start, served.response, signal);
    const answer = await readBodyJson(served.response.body);
    return this.started(
      start,
      parseUpstreamBody(() => UpstreamRun.parse(answer)),
    );
  }

  async list(call: AssistantsRequest, signal: AbortSignal): Promise<unknown> {
    const threadId = call.threadId ?? '';
    const thread = await this.routing.owned(call.tenantId, 'thread', threadId);
    const { run_id: _runId, ...query } = call.query;
    const { answer } = await this.upstream.json({ op: call.op, threadId, query }, [thread.channel], UpstreamList, signal);
    const runs = answer.data.map((item) => UpstreamRun.safeParse(item));
    const known = await this.objects.runs(
      call.tenantId,
      runs.flatMap((run) => (run.success ? [run.data.id] : [])),
    );
    const data: Record<string, unknown>[] = [];
    for (const [index, item] of answer.data.entries()) {
      const run = runs[index]!;
      const record = run.success ? known.get(run.data.id) : undefined;
      if (!run.success || !record) {
        data.push(item);
        continue;
      }
      await this.billing.observe(record, run.data, call.note);
      const channel = await this.routing.channelOf(record).catch(() => thread.channel);
      data.push(withPublicModel(item, channel.upstreamModel, record.modelId));
    }
    return { ...answer, data };
  }

  /** Records a run the upstream named, and its usage if it already ended. */
  private async started(start: Start, run: UpstreamRun): Promise<UpstreamRun> {
    const record = await this.record(start, run.id);
    await this.billing.observe(record, run, start.call.note);
    return withPublicModel(run, start.channel.upstreamModel, start.modelId);
  }

  private async record(start: Start, runId: string): Promise<RunRecord> {
    const { call, channel } = start;
    const home = { modelId: start.modelId, channelId: channel.id, providerId: channel.providerId };
    const run = { id: runId, kind: 'run' as const, tenantId: call.tenantId, ...home, threadId: start.threadId, requestId: call.requestId, keyId: call.keyId };
    // The sweeper's first look, should nobody see the run end before then.
    await this.objects.record({ ...run, hold: start.hold, sweepAt: new Date(Date.now() + this.env.ASSISTANT_RUN_SWEEP_MS) });
    return { ...run, hold: start.hold, usageRecordedAt: null, createdAt: new Date() };
  }

  private relay(start: Start, served: UpstreamResponse, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    const rewrite = publicModelRewriter(start.channel.upstreamModel, start.modelId);
    let record: RunRecord | null = null;
    const frames: StreamFrames = {
      push: async (event) => {
        // The run's own events (not its steps', which carry usage of their own) say how far it got.
        if (event.event?.startsWith('thread.run.') && !event.event.startsWith('thread.run.step.')) {
          const run = readRun(event.data);
          if (run) {
            record ??= await this.record(start, run.id);
            await this.billing.observe(record, run, start.call.note);
          }
        }
        const data = rewrite(event.data);
        return event.event ? `event: ${event.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
      },
      // The parser stops at the stream's `data: [DONE]`, which the client is owed as OpenAI sends it.
      end: () => DONE,
    };
    const lifecycle: StreamLifecycle = {
      fail: (error) => error,
      // A stream that never named its run leaves nothing to settle later: its hold goes back now.
      cancel: async () => {
        if (!record)
          await this.billing.refused(
            start.call,
            start.modelId,
            start.channel.id,
            start.hold,
            new GatewayError('upstream_error', 'The run stream named no run.'),
            start.call.note,
          );
      },
    };
    return relayStream(eventStreamOf(start.channel, served), frames, lifecycle, signal);
  }
}

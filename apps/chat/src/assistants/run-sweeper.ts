import { GatewayError } from '@gateway/contracts';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { AssistantObjectsRepository, type RunRecord } from './assistant-objects.repository';
import { AssistantsRouting } from './assistants-routing.service';
import { AssistantsUpstream } from './assistants-upstream';
import { ChannelBackoff } from './channel-backoff';
import { isTerminalRun, RunBilling } from './run-billing';

/** Runs leased per statement, and statements per pass at most (the rest waits for the next pass). */
const BATCH = 50;
const BATCHES_PER_PASS = 20;
/** Upstream GETs in flight at once. */
const CONCURRENCY = 4;
/** How long one look at the upstream may take. */
const LOOK_TIMEOUT_MS = 10_000;
/**
 * How long a leased run is left to the replica that leased it: longer than a batch of looks takes, so no
 * other replica asks about it meanwhile. Every look moves the run's next look itself; a replica that
 * dies mid-batch leaves its runs to the others after this.
 */
const LEASE_MS = 2 * 60_000;
/** An older run is looked at less often: a tenth of its age between looks, at most this. */
const MAX_LOOK_INTERVAL_MS = 5 * 60_000;

/**
 * Bills the runs whose end the gateway never saw: a client that started a run and never asked again,
 * or left its stream and never listed the thread's runs. Every ASSISTANT_RUN_SWEEP_MS it leases the runs
 * whose usage is not recorded and whose next look is due (oldest first, in batches; several replicas
 * share them out, see the repository), asks each one's channel for it, and hands a terminal answer to
 * RunBilling.observe, which records it exactly once however many callers see it end. A run still not
 * ended at ASSISTANT_RUN_DEADLINE_MS, or one its upstream no longer knows (404), is given up: hold
 * released, usage row `expired`. A channel answering 429, 5xx or not at all is left alone for a while.
 */
@Injectable()
export class RunSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RunSweeper.name);
  private readonly backoff: ChannelBackoff;
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> = Promise.resolve();

  constructor(
    private readonly objects: AssistantObjectsRepository,
    private readonly routing: AssistantsRouting,
    private readonly upstream: AssistantsUpstream,
    private readonly billing: RunBilling,
    @Inject(CHAT_ENV) private readonly env: ChatEnv,
  ) {
    this.backoff = new ChannelBackoff(env.ASSISTANT_RUN_SWEEP_MS);
  }

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.pass;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.pass = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.error(`run sweep failed: ${(error as Error).message}`))
        .finally(() => {
          if (!this.stopping.signal.aborted) this.schedule();
        });
    }, this.env.ASSISTANT_RUN_SWEEP_MS);
    this.timer.unref();
  }

  /** One pass over the due runs; returns how many were looked at. */
  async sweep(): Promise<number> {
    let looked = 0;
    for (let batch = 0; batch < BATCHES_PER_PASS && !this.stopping.signal.aborted; batch++) {
      const runs = await this.objects.leaseUnrecordedRuns(BATCH, LEASE_MS);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < runs.length && !this.stopping.signal.aborted) await this.lookSafely(runs[next++]!);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, runs.length) }, worker));
      looked += runs.length;
      if (runs.length < BATCH) break;
    }
    return looked;
  }

  private async lookSafely(run: RunRecord): Promise<void> {
    try {
      await this.look(run);
    } catch (error) {
      // Left leased: the run comes back after the lease.
      this.logger.error(`run ${run.id}: ${(error as Error).message}`);
    }
  }

  private async look(run: RunRecord): Promise<void> {
    const now = Date.now();
    const age = now - run.createdAt.getTime();
    const overdue = age >= this.env.ASSISTANT_RUN_DEADLINE_MS;
    const later = (ms: number) => this.objects.deferRun(run.id, new Date(now + ms));
    if (!run.threadId) return void (await this.giveUp(run, 'has no thread to ask about it'));
    const channel = await this.routing.channelOf(run).catch(() => null);
    if (!channel) return overdue ? void (await this.giveUp(run, 'lives on a channel no longer configured')) : later(this.env.ASSISTANT_RUN_SWEEP_MS * 4);
    const wait = this.backoff.waitFor(channel.id, now);
    if (wait > 0) return overdue ? void (await this.giveUp(run, `not ended by the deadline; channel ${channel.id} backing off`)) : later(wait);
    let reported;
    try {
      reported = await this.upstream.retrieveRun({ threadId: run.threadId, runId: run.id }, channel, this.lookSignal());
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      const refused = error instanceof GatewayError ? error : null;
      if (refused?.upstreamStatus === 404) return void (await this.giveUp(run, 'no longer exists upstream'));
      const backoff = this.backoff.failed(channel.id, refused?.retryAfterSeconds ?? undefined);
      this.logger.warn(`run ${run.id}: channel ${channel.id} answered ${refused?.upstreamStatus ?? refused?.code ?? 'nothing'}; next look in ${backoff} ms`);
      return overdue ? void (await this.giveUp(run, 'not ended by the deadline; its upstream did not answer')) : later(backoff);
    }
    this.backoff.succeeded(channel.id);
    if (isTerminalRun(reported.status)) return this.billing.observe(run, reported);
    if (overdue) return void (await this.giveUp(run, `still ${reported.status} at the deadline`));
    await later(Math.min(MAX_LOOK_INTERVAL_MS, Math.max(this.env.ASSISTANT_RUN_SWEEP_MS, Math.floor(age / 10))));
  }

  private async giveUp(run: RunRecord, why: string): Promise<void> {
    if (await this.billing.expire(run, why)) this.logger.warn(`run ${run.id} ${why}: its hold is released, its usage row says expired`);
  }

  private lookSignal(): AbortSignal {
    return AbortSignal.any([this.stopping.signal, AbortSignal.timeout(LOOK_TIMEOUT_MS)]);
  }
}

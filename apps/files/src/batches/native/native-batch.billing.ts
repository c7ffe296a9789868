import { BillingClient, costOf, maxUsageOf, type BillingPlan } from '@gateway/billing';
import { USAGE_RETENTION_MS, usageStreamNames, type BillingMode, type CatalogModel, type HoldSettlement, type UsageEvent } from '@gateway/contracts';
import { encodeJson, ensureWorkQueueStream, NatsBus, publishToStream } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { lineRequestId } from '../batch-line.runner';
import type { BatchRow } from '../batches.repository';
import { KeyBudgets } from '../budgets/key-budgets';
import type { UpstreamUsage } from './native-output.mapper';

/** Holds taken at once. */
const HOLD_CHUNK = 64;
/** A line's hold outlives the batch's completion window by this much before the sweeper may free it. */
const HOLD_MARGIN_MS = 3600_000;

/** What one line reported, for its usage row and its charge. */
export interface LineUsage {
  line: number;
  /** The upstream's status for the line; 2xx is served. */
  status: number;
  usage: UpstreamUsage;
}

/**
 * Billing of a native batch, line by line as if each line were a live request: before the batch is
 * forwarded, each line holds its maximum cost under its own request id (the batch id and the line);
 * when the upstream's output is read, each line's usage event settles its hold at the usage the upstream
 * reported (or releases it when the line failed), through the same durable usage stream the chat service
 * writes, so accounts records the usage row and the charge exactly once however often a worker retries.
 */
@Injectable()
export class NativeBatchBilling {
  private readonly names: ReturnType<typeof usageStreamNames>;
  private streamReady: Promise<void> | null = null;
  private readonly budgets: KeyBudgets;

  constructor(
    private readonly billing: BillingClient,
    private readonly bus: NatsBus,
  ) {
    this.names = usageStreamNames(bus.prefix);
    this.budgets = new KeyBudgets(bus);
  }

  /** Where the batch's lines draw and at what prices; null when billing is off. */
  async planOf(batch: BatchRow, model: CatalogModel): Promise<BillingPlan | null> {
    if (!this.billing.enabled) return null;
    return this.billing.planOf(batch.tenantId, batch.keyKind as BillingMode, model);
  }

  /** What a line may cost at most: its body is already capped (the upstream is asked for no more). */
  maxCostOf(plan: BillingPlan, model: CatalogModel, body: Record<string, unknown>): bigint {
    return plan.perRequest ? 1n : costOf(plan.prices, maxUsageOf(model.capability, body, model.defaultMaxTokens));
  }

  /**
   * Holds each line's amount under its request id. A hold already taken for the line is kept as it is
   * (the reservation is idempotent by id), so a forward run again after a crash holds nothing twice.
   * Each line is held against its key's and project's budgets too, like a live request of the key.
   * Throws insufficient_quota when the balance or quota cannot cover a line, budget_exceeded when a
   * budget cannot; the caller releases.
   */
  async hold(batch: BatchRow, plan: BillingPlan, amounts: ReadonlyArray<{ line: number; amount: bigint }>): Promise<void> {
    const ttlMs = Math.max(0, batch.expiresAt.getTime() - Date.now()) + HOLD_MARGIN_MS;
    const budgets = await this.budgets.of(batch.keyId);
    for (let i = 0; i < amounts.length; i += HOLD_CHUNK) {
      const chunk = amounts.slice(i, i + HOLD_CHUNK);
      await Promise.all(chunk.map(({ line, amount }) => this.billing.reserveHold(lineRequestId(batch.id, line), batch.tenantId, amount, plan, ttlMs, budgets)));
    }
  }

  /** Gives back the holds of lines that will not be charged (never run, or the batch could not be forwarded); each ends once. */
  async release(batch: BatchRow, lines: readonly number[], note: string): Promise<void> {
    if (!this.billing.enabled) return;
    for (let i = 0; i < lines.length; i += HOLD_CHUNK) {
      await Promise.all(lines.slice(i, i + HOLD_CHUNK).map((line) => this.billing.wallet.release(lineRequestId(batch.id, line), note)));
    }
  }

  /** The usage events of lines the upstream answered: served lines settle at their usage, failed ones release. */
  eventsOf(batch: BatchRow, model: CatalogModel, plan: BillingPlan | null, lines: readonly LineUsage[], route: string): UsageEvent[] {
    const at = new Date().toISOString();
    return lines.map(({ line, status, usage }) => {
      const served = status >= 200 && status < 300;
      const event: UsageEvent = {
        requestId: lineRequestId(batch.id, line),
        clientRequestId: batch.id,
        tenantId: batch.tenantId,
        keyId: batch.keyId,
        modelId: model.id,
        channelId: batch.nativeChannelId,
        family: 'oaic',
        route,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        ...(usage.cachedTokens ? { cachedTokens: usage.cachedTokens } : {}),
        latencyMs: 0,
        outcome: served ? 'ok' : status >= 500 ? 'upstream_error' : 'error',
        status,
        at,
      };
      if (!plan) return event;
      const settlement: HoldSettlement = served ? { action: 'settle', micros: this.costOf(plan, usage).toString() } : { action: 'release' };
      return { ...event, settlement };
    });
  }

  /** Publishes the events as one message of the usage stream; resolves once the stream holds it. `key` names the message for dedupe. */
  async record(events: UsageEvent[], key: string): Promise<void> {
    if (events.length === 0) return;
    this.streamReady ??= ensureWorkQueueStream(this.bus.connection, this.names.stream, this.names.subject, USAGE_RETENTION_MS).catch((error: Error) => {
      this.streamReady = null;
      throw error;
    });
    await this.streamReady;
    await publishToStream(this.bus, this.names.subject, encodeJson({ events, closes: [] }), { stream: this.names.stream, msgID: key });
  }

  private costOf(plan: BillingPlan, usage: UpstreamUsage): bigint {
    if (plan.perRequest) return 1n;
    return costOf(plan.prices, { inputTokens: usage.promptTokens, outputTokens: usage.completionTokens, cachedInputTokens: usage.cachedTokens });
  }
}

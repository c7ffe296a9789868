import { BillingClient, costOf, maxUsageOf, type Prices } from '@gateway/billing';
import { BillingMode, type CatalogModel, type OaicCaller, type UpstreamRun } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { UsageMeter } from '../usage/usage-meter';
import { UsagePublisher } from '../usage/usage.publisher';
import { AssistantObjectsRepository, type RunRecord } from './assistant-objects.repository';

/** Longer than a run may take upstream (OpenAI expires runs after 10 minutes); the sweeper frees a hold nobody ended. */
const RUN_HOLD_TTL_MS = 60 * 60_000;

const PRICE_FIELDS = ['inputPerMTok', 'outputPerMTok', 'perImage', 'perSecond', 'perTask', 'cachedInputPerMTok', 'cacheWritePerMTok'] as const;

/** What a run's row keeps of its start: the key's kind and, when billing is on, how its hold is priced. */
export const RunHold = z.object({
  keyKind: BillingMode,
  billed: z.object({ perRequest: z.boolean(), prices: z.record(z.enum(PRICE_FIELDS), z.string()) }).nullable(),
});
export type RunHold = z.infer<typeof RunHold>;

/** A run's status from which it changes no more. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'expired', 'incomplete']);

function outcomeOf(status: string): string {
  if (status === 'completed') return 'ok';
  return status === 'cancelled' ? 'cancelled' : 'upstream_error';
}

/**
 * Billing and usage of runs. A run is held for like a chat request when it starts (the catalog's prices,
 * the tenant's plan; the hold lives in the shared wallet under the starting request's id, so whichever
 * process later sees the run end may settle it), and charged at the tokens the upstream reports once
 * the run reaches a terminal status, with one usage row under the same request id. Exactly one caller
 * records it: the guarded move of the run's row. A run ended without usage releases its hold.
 */
@Injectable()
export class RunBilling {
  constructor(
    private readonly billing: BillingClient,
    private readonly objects: AssistantObjectsRepository,
    private readonly publisher: UsagePublisher,
  ) {}

  /** Reserves the run's maximum cost as the body tells it; throws insufficient_quota when it cannot be covered. */
  async hold(caller: OaicCaller, model: CatalogModel, body: Record<string, unknown>): Promise<RunHold> {
    if (!this.billing.enabled) return { keyKind: caller.keyKind, billed: null };
    const plan = await this.billing.planOf(caller.tenantId, caller.keyKind, model);
    const amount = plan.perRequest ? 1n : costOf(plan.prices, maxUsageOf('chat', { ...body, messages: body.additional_messages }, model.defaultMaxTokens));
    await this.billing.reserveHold(caller.requestId, caller.tenantId, amount, plan, RUN_HOLD_TTL_MS);
    const prices = Object.fromEntries(PRICE_FIELDS.map((field) => [field, plan.prices[field].toString()])) as Record<keyof Prices, string>;
    return { keyKind: caller.keyKind, billed: { perRequest: plan.perRequest, prices } };
  }

  /** A run that never started (the upstream refused it): the hold goes back and a failed usage row is kept. */
  async refused(caller: OaicCaller, modelId: string, channelId: string | null, hold: RunHold, error: unknown): Promise<void> {
    if (hold.billed) await this.billing.wallet.release(caller.requestId, 'run refused');
    const meter = new UsageMeter(caller, 'oaic', modelId);
    meter.channelId = channelId;
    this.publisher.record(meter.failed(error));
  }

  /** Records the run's usage and ends its hold, once, when the upstream reports it ended. */
  async observe(run: RunRecord, reported: UpstreamRun): Promise<void> {
    if (!TERMINAL.has(reported.status) || run.usageRecordedAt || !run.requestId || !run.keyId) return;
    const hold = RunHold.safeParse(run.hold);
    if (!hold.success || !(await this.objects.claimUsage(run.id))) return;
    const usage = reported.usage;
    const tokens = usage
      ? { prompt: usage.prompt_tokens, completion: usage.completion_tokens, cached: usage.prompt_token_details?.cached_tokens ?? undefined }
      : { prompt: 0, completion: 0 };
    const billed = hold.data.billed;
    if (billed && usage) {
      const prices = Object.fromEntries(PRICE_FIELDS.map((field) => [field, BigInt(billed.prices[field])])) as unknown as Prices;
      const charge = billed.perRequest ? 1n : costOf(prices, { inputTokens: tokens.prompt, outputTokens: tokens.completion, cachedInputTokens: tokens.cached });
      await this.billing.wallet.settle(run.requestId, charge, `run ${run.id}`);
    } else if (billed) {
      await this.billing.wallet.release(run.requestId, `run ${run.id} ${reported.status} without usage`);
    }
    const caller: OaicCaller = {
      requestId: run.requestId,
      tenantId: run.tenantId,
      keyId: run.keyId,
      keyKind: hold.data.keyKind,
      route: 'oaic.threads.runs.create',
    };
    const meter = new UsageMeter(caller, 'oaic', run.modelId);
    meter.channelId = run.channelId;
    meter.tokens = tokens;
    const event = meter.event(outcomeOf(reported.status), 200);
    this.publisher.record({ ...event, latencyMs: Math.max(0, Date.now() - run.createdAt.getTime()), at: run.createdAt.toISOString() });
  }
}

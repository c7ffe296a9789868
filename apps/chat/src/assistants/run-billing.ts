import { BillingClient, costOf, estimateInputTokens, maxUsageOf, type Prices } from '@gateway/billing';
import { BillingMode, GatewayError, type CatalogModel, type TenantCaller, type ReplyNote, type UpstreamRun } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { UsageMeter, type Tokens } from '../usage/usage-meter';
import { UsagePublisher } from '../usage/usage.publisher';
import { AssistantObjectsRepository, type RunRecord } from './assistant-objects.repository';
import type { StoredSize } from './stored-size';

/**
 * How much longer than the run sweeper's deadline a run's hold lives: the sweeper ends every run's hold
 * by then (billed, released or expired), so the wallet's own sweeper, which frees holds nobody ended,
 * never frees a run's hold first, even when the chat service was down for a while.
 */
const RUN_HOLD_MARGIN_MS = 30 * 60_000;

const PRICE_FIELDS = ['inputPerMTok', 'outputPerMTok', 'perImage', 'perSecond', 'perTask', 'cachedInputPerMTok', 'cacheWritePerMTok'] as const;

/** What a run's row keeps of its start: the key's kind and, when billing is on, how its hold is priced. */
export const RunHold = z.object({
  keyKind: BillingMode,
  billed: z.object({ perRequest: z.boolean(), prices: z.record(z.enum(PRICE_FIELDS), z.string()) }).nullable(),
  /** The run's answer as counted in its thread's stored size when it started (its cap), set right once its tokens are known. */
  answerCap: z.number().int().nonnegative().optional(),
});
export type RunHold = z.infer<typeof RunHold>;

/** A run's status from which it changes no more. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'expired', 'incomplete']);

export function isTerminalRun(status: string): boolean {
  return TERMINAL.has(status);
}

function outcomeOf(status: string): string {
  if (status === 'completed') return 'ok';
  if (status === 'cancelled' || status === 'expired') return status;
  return 'upstream_error';
}

/**
 * Bounds a run's output by what its hold covers, before the hold and the upstream call: a
 * `max_completion_tokens` above the model's cap is refused, and a run without one is sent with the
 * model's cap (OpenAI bounds a run's completion tokens over all its steps by it), as chat requests are.
 */
export function capRunOutput(body: { max_completion_tokens?: number | null }, limit: number): void {
  const cap = body.max_completion_tokens;
  if (cap === undefined || cap === null) body.max_completion_tokens = limit;
  else if (cap > limit)
    throw GatewayError.invalid(`max_completion_tokens is ${cap}, above this model's limit of ${limit} output tokens.`, 'max_completion_tokens');
}

/** OpenAI's least `max_prompt_tokens`. */
const MIN_PROMPT_TOKENS = 256;

/**
 * Bounds a run's input by what its hold covers, before the hold and the upstream call: a run without
 * `max_prompt_tokens` is sent with the most its prompt can take, `stored` (the thread's messages and the
 * assistant's instructions and tools as written through the gateway) plus what the run's own body adds,
 * so the upstream ends the run (`incomplete`) rather than bill prompt tokens beyond the hold, over all its
 * steps. A client's own `max_prompt_tokens` is kept: the hold covers it.
 */
export function capRunPrompt(body: Record<string, unknown>, stored: StoredSize): void {
  if (typeof body.max_prompt_tokens === 'number') return;
  const own = maxUsageOf('chat', { ...body, messages: body.additional_messages }, 0).inputTokens + estimateInputTokens(body.additional_instructions);
  body.max_prompt_tokens = Math.max(MIN_PROMPT_TOKENS, Number(stored.tokens) + own);
}

/**
 * Billing and usage of runs. A run is held for like a chat request when it starts (the catalog's prices,
 * the tenant's plan; the hold lives in the shared wallet under the starting request's id, so whichever
 * process later sees the run end may settle it), and charged at the tokens the upstream reports once
 * the run reaches a terminal status, with one usage row under the same request id. Exactly one caller
 * records it: the guarded move of the run's row. A run ended without usage releases its hold, and so
 * does one given up by the run sweeper (see RunSweeper), with a usage row saying `expired`.
 */
@Injectable()
export class RunBilling {
  constructor(
    private readonly billing: BillingClient,
    private readonly objects: AssistantObjectsRepository,
    private readonly publisher: UsagePublisher,
    @Inject(CHAT_ENV) private readonly env: ChatEnv,
  ) {}

  /**
   * Reserves the run's maximum cost, out of the same wallet as every other request and run of the tenant;
   * throws insufficient_quota when it cannot be covered. The output is bounded by the run's
   * `max_completion_tokens` and the input by its `max_prompt_tokens` (which the caller has set from the
   * model's cap and the thread's and assistant's stored size when the client gave none: see capRunOutput,
   * capRunPrompt), both sent upstream, so the upstream cannot bill beyond the hold.
   */
  async hold(caller: TenantCaller, model: CatalogModel, body: Record<string, unknown>): Promise<RunHold> {
    const answerCap = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : model.defaultMaxTokens;
    if (!this.billing.enabled) return { keyKind: caller.keyKind, billed: null, answerCap };
    const plan = await this.billing.planOf(caller.tenantId, caller.keyKind, model);
    const usage = maxUsageOf('chat', { ...body, messages: body.additional_messages }, model.defaultMaxTokens);
    if (typeof body.max_prompt_tokens === 'number') usage.inputTokens = body.max_prompt_tokens;
    const amount = plan.perRequest ? 1n : costOf(plan.prices, usage);
    await this.billing.reserveHold(caller.requestId, caller.tenantId, amount, plan, this.env.ASSISTANT_RUN_DEADLINE_MS + RUN_HOLD_MARGIN_MS, caller.budgets);
    const prices = Object.fromEntries(PRICE_FIELDS.map((field) => [field, plan.prices[field].toString()])) as Record<keyof Prices, string>;
    return { keyKind: caller.keyKind, billed: { perRequest: plan.perRequest, prices }, answerCap };
  }

  /** A run that never started (the upstream refused it): the hold goes back and a failed usage row is kept. */
  async refused(caller: TenantCaller, modelId: string, channelId: string | null, hold: RunHold, error: unknown, note?: ReplyNote): Promise<void> {
    if (hold.billed) await this.billing.wallet.release(caller.requestId, 'run refused');
    const meter = new UsageMeter(caller, 'oaic', modelId);
    meter.channelId = channelId;
    this.publisher.record(meter.failed(error), note);
  }

  /** Records the run's usage and ends its hold, once, when the upstream reports it ended (telling `note`, the reply's). */
  async observe(run: RunRecord, reported: UpstreamRun, note?: ReplyNote): Promise<void> {
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
    this.recordUsage(run, run.requestId, run.keyId, hold.data.keyKind, tokens, outcomeOf(reported.status), note);
    // The thread counted the answer at its cap when the run started; now its size is known.
    const cap = hold.data.answerCap;
    if (run.threadId && cap !== undefined && usage && tokens.completion < cap)
      await this.objects.growStored(run.threadId, { bytes: 0n, tokens: BigInt(tokens.completion - cap) });
  }

  /**
   * Gives up on a run whose end cannot be known (still not ended at the deadline, or gone upstream), once:
   * its hold goes back and its usage row says `expired`. False when another caller recorded it first.
   */
  async expire(run: RunRecord, why: string): Promise<boolean> {
    if (run.usageRecordedAt || !(await this.objects.claimUsage(run.id))) return false;
    const hold = RunHold.safeParse(run.hold);
    if (!run.requestId || !run.keyId || !hold.success) return true;
    if (hold.data.billed) await this.billing.wallet.release(run.requestId, `run ${run.id} ${why}`);
    this.recordUsage(run, run.requestId, run.keyId, hold.data.keyKind, { prompt: 0, completion: 0 }, 'expired');
    return true;
  }

  /** The run's one usage row, under the starting request's id and dated from the run's start. */
  private recordUsage(run: RunRecord, requestId: string, keyId: string, keyKind: RunHold['keyKind'], tokens: Tokens, outcome: string, note?: ReplyNote): void {
    const caller: TenantCaller = { requestId, tenantId: run.tenantId, keyId, keyKind, route: 'oaic.threads.runs.create' };
    const meter = new UsageMeter(caller, 'oaic', run.modelId);
    meter.channelId = run.channelId;
    meter.tokens = tokens;
    const event = meter.event(outcome, 200);
    this.publisher.record(
      {
        ...event,
        latencyMs: Math.max(0, Date.now() - run.createdAt.getTime()),
        at: run.createdAt.toISOString(),
        kind: 'assistants_run',
        subjectId: run.id,
      },
      note,
    );
  }
}

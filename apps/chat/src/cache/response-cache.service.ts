import { BillingClient } from '@gateway/billing';
import type { CacheOutcome, CatalogModel, ReplyNote, RequestCache, TenantCaller } from '@gateway/contracts';
import { gatewayMetrics, tenantLabelOf } from '@gateway/platform';
import type { IrFamily } from '@gateway/providers';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { MeteredStream } from '../usage/metered-stream';
import type { Tokens } from '../usage/usage-meter';
import { CacheIndexFollower } from './cache-index-follower';
import { CacheWriteBehind } from './cache-write-behind';
import { cacheKeyOf, samplesAnswer, type CachedOperation } from './cache-key';
import { CachedAnswer } from './cached-answer';
import { wholeAnswerOf } from './cache-replay';
import { replayOf } from './oaic-replay';
import { ResponseCacheStore } from './response-cache.store';

export type { CachedAnswer } from './cached-answer';

/** The family whose answer shape each operation's entries hold. */
const FAMILY_OF: Record<CachedOperation, IrFamily> = {
  'oaic.chat': 'oaic',
  'oaic.completions': 'oaic',
  'oaic.responses': 'oaic',
  'msgc.messages': 'msgc',
  'genc.generate': 'genc',
};

/** A stream's text is held for storing up to this many times the largest entry (its frames outweigh the JSON answer). */
const STREAM_TEXT_FACTOR = 4;

/** One request's use of the cache: where its entry lives and what it may do there. */
export interface CachePlan {
  tenantId: string;
  operation: CachedOperation;
  family: IrFamily;
  model: string;
  body: Readonly<Record<string, unknown>>;
  stream: boolean;
  hash: string;
  read: boolean;
  store: boolean;
  ttlSeconds: number;
}

/** An entry found for a request; a streamed request's with the SSE text it replays as. */
export interface CacheHit extends CachedAnswer {
  replay: string | null;
}

export interface CacheRequest {
  cache: RequestCache | undefined;
  tenantId: string;
  operation: CachedOperation;
  model: string;
  body: Readonly<Record<string, unknown>>;
  stream: boolean;
  note: ReplyNote | undefined;
}

/** What serving a hit needs: who pays, for which model, and the request's usage lifecycle. */
export interface HitContext {
  family: IrFamily;
  caller: TenantCaller;
  model: CatalogModel;
  modelId: string;
  stream: boolean;
  metered: MeteredStream;
}

const encoder = new TextEncoder();

/**
 * The response cache in the chat pipeline: a request's entry (tenant, operation, model, canonical body),
 * looked up before any billing hold or upstream call, an answer stored once it is whole, and a hit
 * served (streamed when asked) and billed at the catalog's cacheHitPerMTok. Off costs nothing: no hash,
 * no Redis call; a miss the process's index rules out, and a hit on an answer it keeps, read no Redis either.
 */
@Injectable()
export class ResponseCacheService implements OnModuleDestroy {
  private readonly logger = new Logger(ResponseCacheService.name);
  private readonly writes: CacheWriteBehind;
  /** Each tenant's bytes as of this process's last store: the gauge, summed when tenants are not labelled. */
  private readonly tenantBytes = new Map<string, number>();
  private allBytes = 0;

  constructor(
    private readonly store: ResponseCacheStore,
    private readonly billing: BillingClient,
    private readonly follower: CacheIndexFollower,
  ) {
    this.writes = new CacheWriteBehind(store);
  }

  /** Writes what is pending to the store now. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  async onModuleDestroy(): Promise<void> {
    await this.writes.flush();
    this.writes.close();
  }

  /** The request's plan; null when its tenant's cache is off or the request keeps out of it (told to the note as bypass). */
  plan(request: CacheRequest): CachePlan | null {
    const { cache, operation, body } = request;
    if (!cache) return null;
    if ((!cache.read && !cache.store) || (!cache.sampled && samplesAnswer(operation, body))) {
      this.tell(request.note, 'bypass', request.tenantId, request.model);
      return null;
    }
    const hash = cacheKeyOf({ tenantId: request.tenantId, operation, model: request.model, body });
    const { tenantId, model, stream } = request;
    return { tenantId, operation, family: FAMILY_OF[operation], model, body, stream, hash, read: cache.read, store: cache.store, ttlSeconds: cache.ttlSeconds };
  }

  /**
   * The stored answer, told to the note as a hit or a miss (a request that may not read is a bypass); for a
   * streamed request, with its replay, and a miss when the entry has none.
   */
  async lookup(plan: CachePlan, note: ReplyNote | undefined): Promise<CacheHit | null> {
    if (!plan.read) {
      this.tell(note, 'bypass', plan.tenantId, plan.model);
      return null;
    }
    const found = await this.read(plan);
    const replay = found && plan.stream ? replayOf(plan.operation, found.answer, plan.model, plan.body) : null;
    const hit = found && (!plan.stream || replay !== null) ? { ...found, replay } : null;
    this.tell(note, hit ? 'hit' : 'miss', plan.tenantId, plan.model);
    return hit;
  }

  /** Serves a hit: holds only its price, records its usage (kind and outcome cache_hit), answers whole or as the family's stream. */
  async serve(hit: CacheHit, context: HitContext): Promise<Record<string, unknown> | AsyncGenerator<Uint8Array>> {
    const { caller, metered } = context;
    const micros = await this.billing.reserveHit(
      { requestId: caller.requestId, tenantId: caller.tenantId, keyKind: caller.keyKind, model: context.model, budgets: caller.budgets },
      { inputTokens: hit.prompt, outputTokens: hit.completion },
    );
    const meter = metered.meter;
    meter.tokens = { prompt: hit.prompt, completion: hit.completion };
    meter.kind = 'cache_hit';
    if (micros !== null) meter.costMicros = micros;
    const text = hit.replay;
    if (!context.stream || text === null) {
      metered.hit();
      return hit.answer;
    }
    metered.hit();
    return (async function* () {
      yield encoder.encode(text);
    })();
  }

  /** Keeps a whole answer: in this process's index and memory at once, in the store just after the reply left. */
  keep(plan: CachePlan, answer: Record<string, unknown>, tokens: Tokens): void {
    if (!plan.store) return;
    const entry: CachedAnswer = { answer, prompt: tokens.prompt, completion: tokens.completion };
    const value = Buffer.from(JSON.stringify(entry));
    if (!this.store.fits(value.length)) return;
    const { tenantId, hash } = plan;
    const expiresAt = Date.now() + plan.ttlSeconds * 1000;
    const index = this.follower.index;
    index.add(tenantId, hash, expiresAt);
    index.keepValue(tenantId, hash, entry, value.length, expiresAt);
    this.writes
      .put(tenantId, hash, value, plan.ttlSeconds)
      .then((outcome) => {
        if (!outcome.stored) return index.forget(tenantId, hash);
        this.follower.stored(tenantId, hash, expiresAt);
        const tenant = tenantLabelOf(plan.tenantId);
        this.allBytes += outcome.tenantBytes - (this.tenantBytes.get(plan.tenantId) ?? 0);
        this.tenantBytes.set(plan.tenantId, outcome.tenantBytes);
        gatewayMetrics.responseCacheBytes.set({ tenant }, tenant === '' ? this.allBytes : outcome.tenantBytes);
        if (outcome.evicted > 0) gatewayMetrics.responseCacheEvictions.inc({ tenant }, outcome.evicted);
      })
      .catch((error: Error) => {
        index.forget(tenantId, hash);
        this.logger.warn(`an answer was not cached: ${error.message}`);
      });
  }

  /**
   * Relays a live stream and, once it ended normally (no failure, the client still there), stores the
   * whole answer it spelled, as the family's whole answer, at the tokens it was metered at.
   */
  async *keepStream(plan: CachePlan, source: AsyncGenerator<Uint8Array>, tokens: () => Tokens, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    if (!plan.store) return yield* source;
    const limit = this.store.limits.entryMaxBytes * STREAM_TEXT_FACTOR;
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes <= limit) chunks.push(chunk);
      yield chunk;
    }
    if (signal.aborted || bytes > limit) return;
    const text = Buffer.concat(chunks).toString('utf8');
    const metered = tokens();
    void wholeAnswerOf(plan.family, text, plan.model, metered)
      .then((answer) => answer && this.keep(plan, answer, metered))
      .catch((error: Error) => this.logger.warn(`a streamed answer was not cached: ${error.message}`));
  }

  private async read(plan: CachePlan): Promise<CachedAnswer | null> {
    const { tenantId, hash } = plan;
    const index = this.follower.index;
    if (index.presence(tenantId, hash) === 'absent') return null;
    const kept = index.value(tenantId, hash);
    if (kept) {
      this.writes.touch(tenantId, hash);
      return kept;
    }
    let raw: Buffer | null;
    try {
      raw = await this.store.get(plan.tenantId, plan.hash);
    } catch (error) {
      // The cache is an optimisation: Redis failing is a miss, not a failed request.
      this.logger.warn(`the response cache could not be read: ${(error as Error).message}`);
      return null;
    }
    if (!raw) {
      index.forget(tenantId, hash);
      return null;
    }
    let parsed;
    try {
      parsed = CachedAnswer.safeParse(JSON.parse(raw.toString('utf8')));
    } catch {
      return null;
    }
    if (!parsed.success) return null;
    const expiresAt = index.expiresAt(tenantId, hash);
    if (expiresAt !== undefined) index.keepValue(tenantId, hash, parsed.data, raw.length, expiresAt);
    return parsed.data;
  }

  private tell(note: ReplyNote | undefined, outcome: CacheOutcome, tenantId: string, model: string): void {
    if (note) note.cache = outcome;
    gatewayMetrics.responseCacheLookups.inc({ outcome, model, tenant: tenantLabelOf(tenantId) });
  }
}

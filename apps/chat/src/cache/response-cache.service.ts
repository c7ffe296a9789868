import { BillingClient } from '@gateway/billing';
import type { CacheOutcome, CatalogModel, ReplyNote, RequestCache, TenantCaller } from '@gateway/contracts';
import { gatewayMetrics, tenantLabelOf } from '@gateway/platform';
import type { IrFamily } from '@gateway/providers';
import { Injectable, Logger } from '@nestjs/common';
import type { MeteredStream } from '../usage/metered-stream';
import type { Tokens } from '../usage/usage-meter';
import { CacheIndexFollower } from './cache-index-follower';
import { cacheKeyOf, samplesAnswer, type CachedOperation } from './cache-key';
import { CachedAnswer } from './cached-answer';
import { replayStream, wholeAnswerOf } from './cache-replay';
import { ResponseCacheStore } from './response-cache.store';

export type { CachedAnswer } from './cached-answer';

/** Streams replayed from an entry: the chat-shaped operations (a streamed completion or response goes upstream). */
const REPLAYED: ReadonlySet<CachedOperation> = new Set(['oaic.chat', 'msgc.messages', 'genc.generate']);

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
  family: IrFamily;
  model: string;
  hash: string;
  read: boolean;
  store: boolean;
  ttlSeconds: number;
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
export class ResponseCacheService {
  private readonly logger = new Logger(ResponseCacheService.name);
  /** Each tenant's bytes as of this process's last store: the gauge, summed when tenants are not labelled. */
  private readonly tenantBytes = new Map<string, number>();
  private allBytes = 0;

  constructor(
    private readonly store: ResponseCacheStore,
    private readonly billing: BillingClient,
    private readonly follower: CacheIndexFollower,
  ) {}

  /** The request's plan; null when its tenant's cache is off or the request keeps out of it (told to the note as bypass). */
  plan(request: CacheRequest): CachePlan | null {
    const { cache, operation, body } = request;
    if (!cache) return null;
    const replayable = !request.stream || REPLAYED.has(operation);
    if ((!cache.read && !cache.store) || !replayable || (!cache.sampled && samplesAnswer(operation, body))) {
      this.tell(request.note, 'bypass', request.tenantId, request.model);
      return null;
    }
    const hash = cacheKeyOf({ tenantId: request.tenantId, operation, model: request.model, body });
    const { tenantId, model } = request;
    return { tenantId, family: FAMILY_OF[operation], model, hash, read: cache.read, store: cache.store, ttlSeconds: cache.ttlSeconds };
  }

  /** The stored answer, told to the note as a hit or a miss (a request that may not read is a bypass). */
  async lookup(plan: CachePlan, note: ReplyNote | undefined): Promise<CachedAnswer | null> {
    if (!plan.read) {
      this.tell(note, 'bypass', plan.tenantId, plan.model);
      return null;
    }
    const found = await this.read(plan);
    this.tell(note, found ? 'hit' : 'miss', plan.tenantId, plan.model);
    return found;
  }

  /** Serves a hit: holds only its price, records its usage (kind and outcome cache_hit), answers whole or as the family's stream. */
  async serve(hit: CachedAnswer, context: HitContext): Promise<Record<string, unknown> | AsyncGenerator<Uint8Array>> {
    const { caller, metered } = context;
    const micros = await this.billing.reserveHit(
      { requestId: caller.requestId, tenantId: caller.tenantId, keyKind: caller.keyKind, model: context.model },
      { inputTokens: hit.prompt, outputTokens: hit.completion },
    );
    const meter = metered.meter;
    meter.tokens = { prompt: hit.prompt, completion: hit.completion };
    meter.kind = 'cache_hit';
    if (micros !== null) meter.costMicros = micros;
    if (!context.stream) {
      metered.hit();
      return hit.answer;
    }
    const text = replayStream(context.family, hit.answer, context.modelId);
    metered.hit();
    return (async function* () {
      yield encoder.encode(text);
    })();
  }

  /** Keeps a whole answer (off the reply's path: the write is queued before the reply leaves, so a next request finds it). */
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
    this.store
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
      this.store.touch(tenantId, hash).catch((error: Error) => this.logger.warn(`a cached answer's last read was not marked: ${error.message}`));
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

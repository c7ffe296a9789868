import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error';

/** `read_write` serves hits and stores misses; `read_only` serves hits of entries stored before. */
export const CacheMode = z.enum(['off', 'read_write', 'read_only']);
export type CacheMode = z.infer<typeof CacheMode>;

/** The longest an entry may live, whatever a tenant or a request asks. */
export const CACHE_MAX_TTL_SECONDS = 30 * 24 * 3600;

/** A tenant's (or one key's) response cache. `sampled` caches requests whose temperature is above 0 too. */
export const CacheSettings = z
  .object({
    mode: CacheMode.default('off'),
    ttlSeconds: z.number().int().positive().max(CACHE_MAX_TTL_SECONDS).default(3600),
    sampled: z.boolean().default(false),
  })
  .strict();
export type CacheSettingsInput = z.input<typeof CacheSettings>;
export type CacheSettings = z.output<typeof CacheSettings>;

export const CACHE_HEADER = 'x-gateway-cache';

/** What a request's `x-gateway-cache` header allows: read a stored answer, store its own, and for how long. */
export interface CacheDirective {
  read: boolean;
  store: boolean;
  ttlSeconds?: number;
}

const TTL = /^ttl=(\d{1,10})$/;

/**
 * `no-store` neither reads nor stores, `no-cache` stores a fresh answer without reading, `ttl=SECONDS`
 * shortens (never lengthens past the maximum) how long the answer is kept; no header changes nothing.
 */
export function parseCacheDirective(header: string | readonly string[] | undefined): CacheDirective {
  if (header === undefined) return { read: true, store: true };
  if (typeof header !== 'string') throw GatewayError.invalid(`The ${CACHE_HEADER} header may be sent once.`, CACHE_HEADER);
  const value = header.trim().toLowerCase();
  if (value === 'no-store') return { read: false, store: false };
  if (value === 'no-cache') return { read: false, store: true };
  const ttl = TTL.exec(value);
  const seconds = ttl ? Number(ttl[1]) : NaN;
  if (seconds >= 1 && seconds <= CACHE_MAX_TTL_SECONDS) return { read: true, store: true, ttlSeconds: seconds };
  throw GatewayError.invalid(
    `The ${CACHE_HEADER} header must be no-store, no-cache or ttl=SECONDS (1 to ${CACHE_MAX_TTL_SECONDS}); got "${header.slice(0, 64)}".`,
    CACHE_HEADER,
  );
}

/** What an answer's `x-gateway-cache` header says. */
export const CacheOutcome = z.enum(['hit', 'miss', 'bypass']);
export type CacheOutcome = z.infer<typeof CacheOutcome>;

/**
 * What a request may do with the cache, its tenant's (key-narrowed) settings and its directive taken
 * together: read a stored answer, store its own for `ttlSeconds`, and whether a sampled request counts.
 * Sent to chat only when the cache is on, so a request without one costs nothing.
 */
export const RequestCache = z
  .object({
    read: z.boolean(),
    store: z.boolean(),
    ttlSeconds: z.number().int().positive().max(CACHE_MAX_TTL_SECONDS),
    sampled: z.boolean(),
  })
  .strict();
export type RequestCache = z.infer<typeof RequestCache>;

/** A request's cache from its key's settings and its header; undefined when the key's cache is off. */
export function requestCacheOf(settings: CacheSettings | undefined, directive: CacheDirective): RequestCache | undefined {
  if (!settings || settings.mode === 'off') return undefined;
  return {
    read: directive.read,
    store: directive.store && settings.mode === 'read_write',
    ttlSeconds: Math.min(settings.ttlSeconds, directive.ttlSeconds ?? settings.ttlSeconds),
    sampled: settings.sampled,
  };
}

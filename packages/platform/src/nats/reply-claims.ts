import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';

/**
 * Claim check for replies: a unary reply too large for one NATS message waits in a store under a key
 * the replying service makes, and the message carries only that key, which the caller takes once.
 */
export interface ReplyStore {
  park(key: string, data: Uint8Array, ttlSeconds: number): Promise<void>;
  /** The parked reply, removed as it is read; null when it expired or was taken. */
  take(key: string): Promise<Uint8Array | null>;
}

/** The reply store on Redis: SET with a TTL, read with GETDEL so a large reply never lingers. */
export class RedisReplyStore implements ReplyStore {
  constructor(private readonly redis: Redis) {}

  async park(key: string, data: Uint8Array, ttlSeconds: number): Promise<void> {
    await this.redis.set(key, Buffer.from(data.buffer, data.byteOffset, data.byteLength), 'EX', ttlSeconds);
  }

  take(key: string): Promise<Uint8Array | null> {
    return this.redis.getdelBuffer(key);
  }
}

/** Who a request is for, when its payload says (TenantCaller and most task payloads carry both). */
function ownerOf(payload: unknown): string {
  const { tenantId, requestId } = (payload ?? {}) as { tenantId?: unknown; requestId?: unknown };
  return `${typeof tenantId === 'string' ? tenantId : '-'}:${typeof requestId === 'string' ? requestId : '-'}`;
}

/**
 * A process's reply claim checks: the store, once an app that has one gives it (`use`), and the keys.
 * A key carries the deployment's NATS prefix, the request's tenant and server request id, the replying
 * service and a random part: no caller can name another request's reply, and a caller redeems only keys
 * of its own deployment. Without a store, a reply too large for NATS is refused as before.
 */
export class ReplyClaims {
  private current?: ReplyStore;

  constructor(
    private readonly prefix: string,
    /** How long a parked reply waits: its caller takes it as soon as the reference arrives. */
    readonly ttlSeconds = 60,
  ) {}

  use(store: ReplyStore): void {
    this.current = store;
  }

  get store(): ReplyStore | undefined {
    return this.current;
  }

  keyFor(service: string, payload: unknown): string {
    return `${this.prefix}reply:${ownerOf(payload)}:${service}:${randomUUID()}`;
  }

  owns(key: string): boolean {
    return key.startsWith(`${this.prefix}reply:`);
  }
}

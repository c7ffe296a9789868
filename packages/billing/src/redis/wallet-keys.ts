/**
 * Redis key names of one billing namespace. The namespace comes from NATS_PREFIX, so deployments and
 * test runs sharing a Redis never see each other's holds or events; the hash tag keeps every key of a
 * namespace in one cluster slot, as the scripts need.
 */
export class WalletKeys {
  readonly tag: string;

  constructor(namespace: string) {
    this.tag = `{bill:${namespace || 'default'}}`;
  }

  /** NATS_PREFIX "run42." → namespace "run42"; "" → "default". */
  static fromPrefix(prefix: string): WalletKeys {
    return new WalletKeys(prefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_'));
  }

  balance(tenantId: string): string {
    return `${this.tag}:bal:${tenantId}`;
  }

  quota(tenantId: string, periodIndex: number, unit: 'micros' | 'requests'): string {
    return `${this.tag}:quota:${tenantId}:${periodIndex}:${unit}`;
  }

  /** A budget's counter for one period: what its requests were charged and still hold (see budgetCounterId). */
  budget(counterId: string): string {
    return `${this.tag}:budget:${counterId}`;
  }

  /** A budget counter's id from its key: the inverse of `budget`. */
  budgetIdOf(key: string): string {
    return key.slice(`${this.tag}:budget:`.length);
  }

  /** Every budget counter of the namespace, for SCAN. */
  get budgetPattern(): string {
    return `${this.tag}:budget:*`;
  }

  hold(requestId: string): string {
    return `${this.tag}:hold:${requestId}`;
  }

  /** The requests that drew their charge from a lease (a replayed draw charges nothing). */
  leaseDraws(leaseId: string): string {
    return `${this.tag}:draws:${leaseId}`;
  }

  get holds(): string {
    return `${this.tag}:holds`;
  }

  get events(): string {
    return `${this.tag}:events`;
  }

  /** The run id of the Redis server the wallet was last found whole on (see PRIMARY_FENCE). */
  get primary(): string {
    return `${this.tag}:primary`;
  }

  /** Held by the one accounts replica rebuilding the wallet after a change of Redis server. */
  get rebuildLock(): string {
    return `${this.tag}:rebuild`;
  }
}

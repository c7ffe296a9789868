/**
 * Fair shares of one worker process's delivery slots: at most `perReceiver` attempts in flight to one
 * receiver origin and `perTenant` for one tenant. A receiver that never answers fills only its own
 * share; its other deliveries wait outside the worker's slots (moved back to the delayed set), so
 * other tenants' and receivers' deliveries keep going.
 */
export class DeliverySlots {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly perReceiver: number,
    private readonly perTenant: number,
  ) {}

  /** Takes a slot for a delivery to `url` of `tenantId`; null when either share is full, else the release. */
  tryAcquire(tenantId: string, url: string): (() => void) | null {
    const keys = [`receiver:${originOf(url)}`, `tenant:${tenantId}`];
    const limits = [this.perReceiver, this.perTenant];
    if (keys.some((key, i) => (this.inFlight.get(key) ?? 0) >= limits[i]!)) return null;
    for (const key of keys) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(key);
        else this.inFlight.set(key, left);
      }
    };
  }

  /** Attempts in flight to the receiver of `url` (for tests and metrics). */
  receiverLoad(url: string): number {
    return this.inFlight.get(`receiver:${originOf(url)}`) ?? 0;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

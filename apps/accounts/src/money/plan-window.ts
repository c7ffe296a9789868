import type { SubscriptionProfile } from '@gateway/contracts';

/** A subscription's current quota window: its counter's unit and period index, and when the window opened and closes. */
export interface PlanWindow {
  unit: 'micros' | 'requests';
  periodIndex: number;
  limit: bigint;
  windowStart: Date;
  windowEnd: Date;
}

/** The window a plan's reservations draw on now (the billing client counts periods the same way); null without a quota. */
export function planWindowOf(subscription: SubscriptionProfile | null, now = Date.now()): PlanWindow | null {
  if (!subscription?.periodSeconds || (subscription.quotaMicros === null && subscription.quotaRequests === null)) return null;
  const periodMs = subscription.periodSeconds * 1000;
  const starts = Date.parse(subscription.startsAt);
  const periodIndex = Math.floor(Math.max(0, now - starts) / periodMs);
  const perRequest = subscription.quotaMicros === null;
  return {
    unit: perRequest ? 'requests' : 'micros',
    periodIndex,
    limit: perRequest ? BigInt(subscription.quotaRequests!) : BigInt(subscription.quotaMicros!),
    windowStart: new Date(starts + periodIndex * periodMs),
    windowEnd: new Date(starts + (periodIndex + 1) * periodMs),
  };
}

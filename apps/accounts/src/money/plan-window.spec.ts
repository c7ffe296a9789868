import { planWindowOf } from './plan-window';

const subscription = {
  kind: 'plan' as const,
  quotaMicros: null,
  quotaRequests: 100,
  periodSeconds: 3600,
  startsAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  priceOverrides: {},
};

describe('planWindowOf', () => {
  it('finds the period a plan draws on now, counted from its start', () => {
    const now = Date.parse('2026-01-01T05:30:00.000Z');
    expect(planWindowOf(subscription, now)).toEqual({
      unit: 'requests',
      periodIndex: 5,
      limit: 100n,
      windowStart: new Date('2026-01-01T05:00:00.000Z'),
      windowEnd: new Date('2026-01-01T06:00:00.000Z'),
    });
    expect(planWindowOf({ ...subscription, quotaMicros: '5000000' }, now)).toMatchObject({ unit: 'micros', limit: 5_000_000n });
  });

  it('has no window without a period or a quota', () => {
    expect(planWindowOf(null)).toBeNull();
    expect(planWindowOf({ ...subscription, periodSeconds: null })).toBeNull();
    expect(planWindowOf({ ...subscription, quotaRequests: null })).toBeNull();
  });
});

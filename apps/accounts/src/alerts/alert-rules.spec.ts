import { balanceMove, budgetSubject, crossedShares, parseCounterId, quotaIsLow, usedRatio } from './alert-rules';

describe('alert rules', () => {
  it('names the shares a budget has reached, none before any use', () => {
    expect(crossedShares(1000n, 499n, [50, 80, 100])).toEqual([]);
    expect(crossedShares(1000n, 500n, [50, 80, 100])).toEqual([50]);
    expect(crossedShares(1000n, 1200n, [50, 80, 100, 150])).toEqual([50, 80, 100]);
    expect(crossedShares(0n, 0n, [50])).toEqual([]);
    expect(crossedShares(0n, 1n, [50, 100])).toEqual([50, 100]);
  });

  it('fires balance.low once per arming and re-arms above the threshold', () => {
    expect(balanceMove(4n, 5n, false)).toBe('fire');
    expect(balanceMove(4n, 5n, true)).toBe('none');
    expect(balanceMove(5n, 5n, true)).toBe('rearm');
    expect(balanceMove(9n, 5n, false)).toBe('none');
  });

  it('judges a quota low by the share left', () => {
    expect(quotaIsLow(100n, 79n, 20)).toBe(false);
    expect(quotaIsLow(100n, 81n, 20)).toBe(true);
    expect(quotaIsLow(100n, 150n, 20)).toBe(true);
    expect(quotaIsLow(0n, 0n, 20)).toBe(false);
  });

  it('reads counter ids and ratios', () => {
    const id = 'project:0b6f3c1e-8d2a-4f57-9a39-2b7c0f5e4d11:m202611';
    expect(parseCounterId(id)).toEqual({ scope: 'project', scopeId: '0b6f3c1e-8d2a-4f57-9a39-2b7c0f5e4d11', window: 'm202611' });
    expect(parseCounterId('nonsense')).toBeNull();
    expect(budgetSubject(id, 80)).toBe(`budget:${id}:80`);
    expect(usedRatio(1000n, 250n)).toBe(0.25);
    expect(usedRatio(0n, 3n)).toBe(1);
  });
});

import { usageWindowOf } from './usage-window';

const at = (iso: string) => new Date(iso);

describe('usageWindowOf', () => {
  it('reads every day from the rollup when the window is open at both ends', () => {
    expect(usageWindowOf(null, null)).toEqual({ days: { fromDay: null, toDay: null }, edges: [] });
  });

  it('reads whole days from the rollup and the part days at the edges from the records', () => {
    expect(usageWindowOf(at('2026-03-01T10:00:00Z'), at('2026-03-05T06:30:00Z'))).toEqual({
      days: { fromDay: at('2026-03-02T00:00:00Z'), toDay: at('2026-03-05T00:00:00Z') },
      edges: [
        { from: at('2026-03-01T10:00:00Z'), to: at('2026-03-02T00:00:00Z') },
        { from: at('2026-03-05T00:00:00Z'), to: at('2026-03-05T06:30:00Z') },
      ],
    });
  });

  it('needs no edge where the window starts or ends at midnight', () => {
    expect(usageWindowOf(at('2026-03-01T00:00:00Z'), at('2026-03-03T00:00:00Z'))).toEqual({
      days: { fromDay: at('2026-03-01T00:00:00Z'), toDay: at('2026-03-03T00:00:00Z') },
      edges: [],
    });
    expect(usageWindowOf(at('2026-03-01T12:00:00Z'), null)).toEqual({
      days: { fromDay: at('2026-03-02T00:00:00Z'), toDay: null },
      edges: [{ from: at('2026-03-01T12:00:00Z'), to: at('2026-03-02T00:00:00Z') }],
    });
  });

  it('reads a window inside one day from the records alone', () => {
    expect(usageWindowOf(at('2026-03-01T10:00:00Z'), at('2026-03-01T11:00:00Z'))).toEqual({
      days: null,
      edges: [{ from: at('2026-03-01T10:00:00Z'), to: at('2026-03-01T11:00:00Z') }],
    });
    expect(usageWindowOf(at('2026-03-01T10:00:00Z'), at('2026-03-02T03:00:00Z'))).toEqual({
      days: null,
      edges: [{ from: at('2026-03-01T10:00:00Z'), to: at('2026-03-02T03:00:00Z') }],
    });
    expect(usageWindowOf(at('2026-03-02T10:00:00Z'), at('2026-03-01T10:00:00Z'))).toEqual({ days: null, edges: [] });
  });
});

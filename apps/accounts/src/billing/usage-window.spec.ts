import { usageWindowOf } from './usage-window';

const at = (iso: string) => new Date(iso);

describe('usageWindowOf', () => {
  it('reads every hour from the rollup when the window is open at both ends', () => {
    expect(usageWindowOf(null, null)).toEqual({ hours: { fromHour: null, toHour: null }, edges: [] });
  });

  it('reads whole hours from the rollup and the part hours at the edges from the records', () => {
    expect(usageWindowOf(at('2026-03-01T10:20:00Z'), at('2026-03-05T06:30:00Z'))).toEqual({
      hours: { fromHour: at('2026-03-01T11:00:00Z'), toHour: at('2026-03-05T06:00:00Z') },
      edges: [
        { from: at('2026-03-01T10:20:00Z'), to: at('2026-03-01T11:00:00Z') },
        { from: at('2026-03-05T06:00:00Z'), to: at('2026-03-05T06:30:00Z') },
      ],
    });
  });

  it('needs no edge where the window starts or ends on the hour', () => {
    expect(usageWindowOf(at('2026-03-01T00:00:00Z'), at('2026-03-03T00:00:00Z'))).toEqual({
      hours: { fromHour: at('2026-03-01T00:00:00Z'), toHour: at('2026-03-03T00:00:00Z') },
      edges: [],
    });
    expect(usageWindowOf(at('2026-03-01T12:00:01Z'), null)).toEqual({
      hours: { fromHour: at('2026-03-01T13:00:00Z'), toHour: null },
      edges: [{ from: at('2026-03-01T12:00:01Z'), to: at('2026-03-01T13:00:00Z') }],
    });
  });

  it('reads a window inside one hour, or across one boundary, from the records alone', () => {
    expect(usageWindowOf(at('2026-03-01T10:05:00Z'), at('2026-03-01T10:55:00Z'))).toEqual({
      hours: null,
      edges: [{ from: at('2026-03-01T10:05:00Z'), to: at('2026-03-01T10:55:00Z') }],
    });
    expect(usageWindowOf(at('2026-03-01T10:30:00Z'), at('2026-03-01T11:10:00Z'))).toEqual({
      hours: null,
      edges: [{ from: at('2026-03-01T10:30:00Z'), to: at('2026-03-01T11:10:00Z') }],
    });
    expect(usageWindowOf(at('2026-03-02T10:00:00Z'), at('2026-03-01T10:00:00Z'))).toEqual({ hours: null, edges: [] });
  });
});

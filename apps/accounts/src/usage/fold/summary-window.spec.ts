import { DAY_MS, summaryWindow } from './summary-window';

const at = (iso: string) => new Date(iso);

describe('summaryWindow', () => {
  it('reads every hour from the rollup when the window is open at both ends', () => {
    expect(summaryWindow(null, null)).toEqual({ whole: { from: null, to: null }, edges: [] });
  });

  it('keeps whole hours whole and reads the part hours at the ends from the records', () => {
    expect(summaryWindow(at('2026-11-01T10:20:00Z'), at('2026-11-03T07:05:30Z'))).toEqual({
      whole: { from: at('2026-11-01T11:00:00Z'), to: at('2026-11-03T07:00:00Z') },
      edges: [
        { from: at('2026-11-01T10:20:00Z'), to: at('2026-11-01T11:00:00Z') },
        { from: at('2026-11-03T07:00:00Z'), to: at('2026-11-03T07:05:30Z') },
      ],
    });
  });

  it('has no edges when both ends fall on the hour', () => {
    expect(summaryWindow(at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toEqual({
      whole: { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') },
      edges: [],
    });
  });

  it('reads a window from a time until now as whole hours after its first part hour', () => {
    expect(summaryWindow(at('2026-11-01T10:00:00.001Z'), null)).toEqual({
      whole: { from: at('2026-11-01T11:00:00Z'), to: null },
      edges: [{ from: at('2026-11-01T10:00:00.001Z'), to: at('2026-11-01T11:00:00Z') }],
    });
    expect(summaryWindow(null, at('2026-11-01T10:30:00Z'))).toEqual({
      whole: { from: null, to: at('2026-11-01T10:00:00Z') },
      edges: [{ from: at('2026-11-01T10:00:00Z'), to: at('2026-11-01T10:30:00Z') }],
    });
  });

  it('reads a window inside one hour, or across one boundary without a whole hour, from the records alone', () => {
    expect(summaryWindow(at('2026-11-01T10:10:00Z'), at('2026-11-01T10:50:00Z'))).toEqual({
      whole: null,
      edges: [{ from: at('2026-11-01T10:10:00Z'), to: at('2026-11-01T10:50:00Z') }],
    });
    expect(summaryWindow(at('2026-11-01T10:10:00Z'), at('2026-11-01T11:50:00Z'))).toEqual({
      whole: null,
      edges: [{ from: at('2026-11-01T10:10:00Z'), to: at('2026-11-01T11:50:00Z') }],
    });
  });

  it('splits by whole days for a daily rollup', () => {
    expect(summaryWindow(at('2026-11-01T10:20:00Z'), at('2026-11-04T00:00:00Z'), DAY_MS)).toEqual({
      whole: { from: at('2026-11-02T00:00:00Z'), to: at('2026-11-04T00:00:00Z') },
      edges: [{ from: at('2026-11-01T10:20:00Z'), to: at('2026-11-02T00:00:00Z') }],
    });
  });
});

import { ControlError, resolveControls, resolveRunMs, splitModelName } from './controls';

const defaults = { latencyMs: 3, chunkDelayMs: 4 };

describe('sandbox controls', () => {
  it('splits options from the model name', () => {
    expect(splitModelName('sandbox-gpt@latency=20,chunk=5,fail=500')).toEqual({
      name: 'sandbox-gpt',
      options: { latency: '20', chunk: '5', fail: '500' },
    });
    expect(splitModelName('sandbox-gpt')).toEqual({ name: 'sandbox-gpt', options: {} });
  });

  it('falls back to the process defaults', () => {
    expect(resolveControls({}, 'sandbox-gpt', defaults)).toEqual({ latencyMs: 3, chunkDelayMs: 4, fail: null });
  });

  it('reads the model suffix, and headers win over it', () => {
    expect(resolveControls({}, 'm@latency=20,chunk=5,fail=cut', defaults)).toEqual({ latencyMs: 20, chunkDelayMs: 5, fail: 'cut' });
    const headers = { 'x-sandbox-latency-ms': '7', 'x-sandbox-chunk-delay-ms': '0', 'x-sandbox-fail': '429' };
    expect(resolveControls(headers, 'm@latency=20,chunk=5,fail=cut', defaults)).toEqual({ latencyMs: 7, chunkDelayMs: 0, fail: '429' });
  });

  it('reads how long a run takes from the model suffix or its header, else none', () => {
    expect(resolveRunMs({}, 'sandbox-gpt')).toBe(0);
    expect(resolveRunMs({}, 'sandbox-gpt@run=2500,chunk=5')).toBe(2500);
    expect(resolveRunMs({ 'x-sandbox-run-ms': '40' }, 'sandbox-gpt@run=2500')).toBe(40);
    expect(() => resolveRunMs({}, 'm@run=later')).toThrow(/model@run/);
  });

  it('rejects values it cannot honour, naming where they came from', () => {
    expect(() => resolveControls({ 'x-sandbox-fail': 'teapot' }, 'm', defaults)).toThrow(ControlError);
    expect(() => resolveControls({}, 'm@latency=soon', defaults)).toThrow(/model@latency/);
  });
});

import { formatLogLine } from './log-line';

describe('formatLogLine', () => {
  it('shows a JSON line as time, level, message and the other fields', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-01-02T03:04:05.678Z',
      app: 'edge',
      pid: 1,
      msg: 'access',
      route: 'oaic.chat',
      status: 200,
      model: 'a b',
    });
    expect(formatLogLine(line)).toBe('03:04:05.678 INFO  access route=oaic.chat status=200 model="a b"');
  });

  it('names the Nest context and reads numeric levels', () => {
    const line = JSON.stringify({ level: 50, time: 0, msg: 'failed', context: 'UsageWriter' });
    expect(formatLogLine(line)).toBe('00:00:00.000 ERROR UsageWriter: failed');
  });

  it('passes other lines unchanged', () => {
    expect(formatLogLine('sandbox listening on http://127.0.0.1:8090')).toBe('sandbox listening on http://127.0.0.1:8090');
    expect(formatLogLine('{not json')).toBe('{not json');
  });
});

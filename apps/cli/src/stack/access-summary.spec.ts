import { AccessSummary, statusOfAccessLine } from './access-summary';

const access = (status: number) => JSON.stringify({ level: 'info', app: 'edge', requestId: 'r', route: 'oaic.chat', status, latencyMs: 2, msg: 'access' });

describe('AccessSummary', () => {
  it('prints every other line, counts access lines by status class and prints those of a 5xx', () => {
    const printed: string[] = [];
    const summary = new AccessSummary((app, line) => printed.push(`[${app}] ${line}`), 60_000);
    summary.sink('chat', 'chat listening on NATS');
    for (const status of [200, 200, 201, 404, 429, 502]) summary.sink('edge', access(status));
    expect(printed).toEqual(['[chat] chat listening on NATS', `[edge] ${access(502)}`]);
    summary.stop();
    expect(printed[2]).toMatch(/^\[edge\] 6 requests in the last 60 s: 3 2xx, 2 4xx, 1 5xx/);
  });

  it('prints nothing for a period without requests', () => {
    const printed: string[] = [];
    const summary = new AccessSummary((_app, line) => printed.push(line), 60_000);
    summary.sink('edge', access(200));
    summary.flush();
    summary.flush();
    summary.stop();
    expect(printed).toHaveLength(1);
  });

  it('reads the status of an access line without parsing it', () => {
    expect(statusOfAccessLine(access(499))).toBe(499);
    expect(statusOfAccessLine('{"msg":"access"}')).toBe(0);
  });
});

import { Readable } from 'node:stream';
import { GatewayError } from '@gateway/contracts';
import { fromUpstreamError } from '../vendors/openai/openai-error.map';
import type { ChannelTarget, UpstreamResponse } from '../provider.types';
import { executeWithFailover, FailoverError } from './failover';

const channel = (id: string, priority = 0): ChannelTarget => ({
  id,
  providerId: 'p',
  protocol: 'openai',
  baseUrl: 'http://upstream/v1',
  apiKey: 'sk-x',
  upstreamModel: 'm',
  priority,
  weight: 1,
});

const answer = (status: number, body = '{}', headers: Record<string, string> = {}): UpstreamResponse => ({ status, headers, body: Readable.from([body]) });
const toError = (status: number, text: string, _c: ChannelTarget, headers: UpstreamResponse['headers']) => fromUpstreamError(status, text, { headers });

describe('executeWithFailover', () => {
  it('returns the first channel that answers 2xx, untouched', async () => {
    const result = await executeWithFailover([channel('a'), channel('b')], async () => answer(200, 'ok'));
    expect(result.channel.id).toBe('a');
    expect(result.attempts).toEqual([{ channelId: 'a', status: 200, ms: expect.any(Number) }]);
  });

  it('moves on after a 500, a 429, a connection error and a timeout', async () => {
    const script: Record<string, () => Promise<UpstreamResponse>> = {
      a: async () => answer(500, JSON.stringify({ error: { message: 'boom' } })),
      b: async () => answer(429, 'slow down'),
      c: async () => {
        throw new GatewayError('upstream_error', 'Could not reach the upstream (ECONNREFUSED).');
      },
      d: async () => {
        throw new GatewayError('upstream_timeout', 'The upstream did not answer in time.');
      },
      e: async () => answer(200, 'fine'),
    };
    const result = await executeWithFailover(
      ['a', 'b', 'c', 'd', 'e'].map((id) => channel(id)),
      (c) => script[c.id]!(),
      { toError },
    );
    expect(result.channel.id).toBe('e');
    expect(result.attempts.map((a) => a.status ?? a.error)).toEqual([500, 429, 'upstream_error', 'upstream_timeout', 200]);
  });

  it('moves on when a channel refuses its own key or does not know its model', async () => {
    const statuses: Record<string, number> = { a: 401, b: 404, c: 200 };
    const result = await executeWithFailover(
      ['a', 'b', 'c'].map((id) => channel(id)),
      async (c) => answer(statuses[c.id]!),
      { toError },
    );
    expect(result.attempts.map((a) => a.status)).toEqual([401, 404, 200]);
  });

  it('stops at once on a client error: another channel would refuse it too', async () => {
    const tried: string[] = [];
    const run = executeWithFailover(
      [channel('a'), channel('b')],
      async (c) => {
        tried.push(c.id);
        return answer(400, JSON.stringify({ error: { message: "Invalid 'n'", param: 'n' } }));
      },
      { toError },
    );
    await expect(run).rejects.toMatchObject({ code: 'invalid_request', param: 'n', upstreamStatus: 400 });
    expect(tried).toEqual(['a']);
  });

  it('throws the last error with every attempt when all channels fail', async () => {
    const run = executeWithFailover(
      [channel('a'), channel('b')],
      async (c) => answer(c.id === 'a' ? 503 : 500, JSON.stringify({ error: { message: `${c.id} down` } })),
      {
        toError,
      },
    );
    const error = (await run.catch((e: unknown) => e)) as FailoverError;
    expect(error).toBeInstanceOf(FailoverError);
    expect(error).toMatchObject({ code: 'upstream_error', message: 'b down', upstreamStatus: 500 });
    expect(error.attempts.map((a) => a.channelId)).toEqual(['a', 'b']);
  });

  it('never hangs on an empty channel list, and stops when the caller aborted', async () => {
    await expect(executeWithFailover([], async () => answer(200))).rejects.toMatchObject({ code: 'unavailable' });
    const controller = new AbortController();
    const tried: string[] = [];
    const run = executeWithFailover(
      [channel('a'), channel('b')],
      async (c) => {
        tried.push(c.id);
        controller.abort();
        throw new GatewayError('upstream_error', 'The upstream call was cancelled.');
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toBeInstanceOf(FailoverError);
    expect(tried).toEqual(['a']);
  });

  it('moves on past a channel whose vendor says a 400 stands for a rate limit (a spent Bedrock quota)', async () => {
    const tried: string[] = [];
    const quota = (_status: number, body: string) => new GatewayError('rate_limited', body, null, 429);
    const { channel: served } = await executeWithFailover(
      [channel('a'), channel('b')],
      async (c) => {
        tried.push(c.id);
        return c.id === 'a' ? answer(400, 'ServiceQuotaExceededException') : answer(200, '{}');
      },
      { toError: quota },
    );
    expect(served.id).toBe('b');
    expect(tried).toEqual(['a', 'b']);
  });

  it('moves on past a rate limit thrown by the attempt (a stream whose first event is a throttle)', async () => {
    const { channel: served } = await executeWithFailover([channel('a'), channel('b')], async (c) => {
      if (c.id === 'a') throw new GatewayError('rate_limited', 'throttlingException: slow down', null, 429);
      return answer(200, '{}');
    });
    expect(served.id).toBe('b');
  });

  it("does not retry an error that is not the upstream's fault", async () => {
    const run = executeWithFailover([channel('a'), channel('b')], async () => {
      throw GatewayError.invalid('bad file', 'file');
    });
    await expect(run).rejects.toMatchObject({ code: 'invalid_request', param: 'file' });
  });
});

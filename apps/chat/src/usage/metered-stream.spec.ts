import { GatewayError, type TenantCaller, type UsageEvent } from '@gateway/contracts';
import { FailoverError } from '@gateway/providers';
import { MeteredStream, type UsageSink } from './metered-stream';
import { UsageMeter, type Tokens } from './usage-meter';

const caller: TenantCaller = { requestId: 'req-1', tenantId: 't1', keyId: 'k1', keyKind: 'payg', route: 'oaic.chat' };

/** A relay in miniature: frames delivered one by one, usage measured from what was delivered. */
function relay() {
  const events: UsageEvent[] = [];
  const sink: UsageSink = { record: (event) => events.push(event) };
  const meter = new UsageMeter(caller, 'oaic', 'public-model');
  meter.channelId = 'ch-1';
  let delivered = 0;
  let measured = 0;
  const measure = (): Tokens => {
    measured++;
    return { prompt: 7, completion: delivered };
  };
  const metered = new MeteredStream(meter, sink).measureWith(measure);
  return {
    events,
    metered,
    deliver: (n: number) => (delivered += n),
    measured: () => measured,
  };
}

const summary = (event: UsageEvent) => ({
  outcome: event.outcome,
  status: event.status,
  promptTokens: event.promptTokens,
  completionTokens: event.completionTokens,
  channelId: event.channelId,
});

describe('MeteredStream', () => {
  it('records one ok event with everything delivered when the stream succeeds', () => {
    const r = relay();
    r.deliver(3);
    r.deliver(4);
    r.metered.succeed();
    // The relay's finally runs after success: nothing more is recorded.
    r.metered.cancel();
    expect(r.events.map(summary)).toEqual([{ outcome: 'ok', status: 200, promptTokens: 7, completionTokens: 7, channelId: 'ch-1' }]);
    expect(r.metered.done).toBe(true);
  });

  it('records one upstream_error event with what was delivered before the upstream broke mid-stream', () => {
    const r = relay();
    r.deliver(5);
    r.metered.fail(new GatewayError('upstream_error', 'The upstream stream ended before the answer was complete.'));
    r.metered.cancel();
    expect(r.events.map(summary)).toEqual([{ outcome: 'upstream_error', status: 502, promptTokens: 7, completionTokens: 5, channelId: 'ch-1' }]);
  });

  it('records one cancelled event (499) with what reached the client when it goes away', () => {
    const r = relay();
    r.deliver(2);
    r.metered.cancel();
    r.deliver(9);
    r.metered.succeed();
    r.metered.fail(new Error('late'));
    expect(r.events.map(summary)).toEqual([{ outcome: 'cancelled', status: 499, promptTokens: 7, completionTokens: 2, channelId: 'ch-1' }]);
  });

  it('records a failure before the first event with nothing delivered, naming the last channel tried', () => {
    const r = relay();
    const error = new FailoverError(new GatewayError('upstream_timeout', 'The upstream did not answer in time.'), [
      { channelId: 'ch-a', status: 503, ms: 3 },
      { channelId: 'ch-b', ms: 30 },
    ]);
    r.metered.fail(error);
    expect(r.events.map(summary)).toEqual([{ outcome: 'upstream_error', status: 504, promptTokens: 7, completionTokens: 0, channelId: 'ch-b' }]);
  });

  it('records a refusal of the gateway itself with its status, and an unknown error as a 500', () => {
    const refused = relay();
    refused.metered.fail(GatewayError.invalid('max_tokens is above the model limit.', 'max_tokens'));
    const broken = relay();
    broken.metered.fail(new TypeError('boom'));
    expect([...refused.events, ...broken.events].map((e) => [e.outcome, e.status])).toEqual([
      ['error', 400],
      ['error', 500],
    ]);
  });

  it('records exactly one event, measured once, whatever the order and number of end calls', () => {
    const ends: Array<(m: MeteredStream) => void> = [(m) => m.succeed(), (m) => m.fail(new Error('x')), (m) => m.cancel()];
    for (const first of ends) {
      for (const second of ends) {
        const r = relay();
        first(r.metered);
        second(r.metered);
        first(r.metered);
        expect(r.events).toHaveLength(1);
        expect(r.measured()).toBe(1);
      }
    }
  });

  it('keeps the tokens already set on the meter when it has no measure', () => {
    const events: UsageEvent[] = [];
    const meter = new UsageMeter(caller, 'oaic', 'public-model');
    meter.tokens = { prompt: 11, completion: 13 };
    const metered = new MeteredStream(meter, { record: (event) => events.push(event) });
    metered.succeed();
    metered.succeed();
    expect(events.map(summary)).toEqual([{ outcome: 'ok', status: 200, promptTokens: 11, completionTokens: 13, channelId: null }]);
  });
});

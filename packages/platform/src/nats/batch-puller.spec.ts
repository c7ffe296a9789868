import { deliveriesOf } from './batch-puller';

describe('deliveriesOf', () => {
  it('reads the delivery count of both forms of JetStream ack subject', () => {
    expect(deliveriesOf('$JS.ACK.USAGE.usage-writer.3.41.40.1732600000000000000.0')).toBe(3);
    expect(deliveriesOf('$JS.ACK.hub.ACCHASH.USAGE.usage-writer.5.41.40.1732600000000000000.0.rnd')).toBe(5);
  });

  it('counts a message without an ack subject as a first delivery', () => {
    expect(deliveriesOf(undefined)).toBe(1);
    expect(deliveriesOf('_INBOX.abc')).toBe(1);
  });
});

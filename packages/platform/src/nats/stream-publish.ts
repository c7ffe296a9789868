import { headers as natsHeaders } from 'nats';
import { z } from 'zod';
import { decodeJson } from './codec';
import type { NatsBus } from './nats-bus';

/** JetStream's answer to a publish: where the message was stored, or why it was refused. */
const PubAck = z.union([
  z.object({ error: z.object({ code: z.number(), description: z.string() }) }),
  z.object({ stream: z.string(), seq: z.number(), duplicate: z.boolean().optional() }),
]);

export interface StreamPublish {
  /** The stream the message must land in (JetStream refuses it otherwise). */
  stream: string;
  /** Deduplication id: a retried publish with the same id is stored once. */
  msgID: string;
  timeoutMs?: number;
}

/**
 * Publishes to a JetStream stream over the process's shared request multiplexer. The message is on the
 * connection when this returns (before its first await), so it precedes anything the caller writes
 * next; the returned promise settles with the stream's acknowledgement. While the link is down the
 * message leaves the moment it is back (before the replies held for it), within the timeout.
 */
export function publishToStream(bus: NatsBus, subject: string, data: Uint8Array, options: StreamPublish): Promise<{ seq: number; duplicate: boolean }> {
  const h = natsHeaders();
  h.set('Nats-Msg-Id', options.msgID);
  h.set('Nats-Expected-Stream', options.stream);
  const timeoutMs = options.timeoutMs ?? 5000;
  const sent = bus.link.isUp
    ? bus.requests.request(subject, data, timeoutMs, { headers: h, now: true })
    : bus.link.whenUp(timeoutMs).then(() => bus.requests.request(subject, data, timeoutMs, { headers: h, now: true }));
  return sent.then(
    (msg) => {
      const ack = PubAck.parse(decodeJson(msg.data));
      if ('error' in ack) throw new Error(`JetStream refused the publish: ${ack.error.description} (${ack.error.code})`);
      return { seq: ack.seq, duplicate: ack.duplicate === true };
    },
    (error: Error) => {
      throw new Error(`JetStream did not acknowledge the publish: ${error.message}`);
    },
  );
}

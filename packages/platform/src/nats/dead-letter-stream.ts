import { DEAD_LETTER_CONSUMERS, DEAD_LETTER_RETENTION_MS, DeadLetter, deadLetterStreamNames, type DeadLetterConsumer } from '@gateway/contracts';
import { nanos, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import { z } from 'zod';
import { decodeJson, encodeJson } from './codec';
import { ensureStream } from './ensure-stream';

export interface StoredDeadLetter {
  /** Its sequence in the stream, as text: the id an operator names. */
  id: string;
  letter: DeadLetter;
}

/** JetStream's answer to a message get: the message (data in base64) or why not. */
const MsgGetReply = z.union([
  z.object({ error: z.object({ code: z.number(), description: z.string() }) }),
  z.object({ message: z.object({ seq: z.number(), data: z.string().optional() }) }),
]);

/** What the client library throws when a message is not stored. */
const NOT_FOUND = /404|no message found/i;

/**
 * The dead-letter stream (limits retention, file storage): what durable consumers could not write,
 * kept until replayed or too old. One subject per consumer, under the deployment's NATS_PREFIX.
 */
export class DeadLetterStream {
  readonly names: ReturnType<typeof deadLetterStreamNames>;

  constructor(
    private readonly connection: NatsConnection,
    prefix: string,
  ) {
    this.names = deadLetterStreamNames(prefix);
  }

  /** Creates the stream unless it exists (every replica calls it at start). */
  async ensure(): Promise<void> {
    await ensureStream(this.connection, {
      name: this.names.stream,
      subjects: [this.names.subjects],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(DEAD_LETTER_RETENTION_MS),
    });
  }

  /** Stores a dead letter; resolves once JetStream holds it. */
  async add(letter: DeadLetter): Promise<string> {
    const ack = await this.connection.jetstream().publish(this.names.subject(letter.consumer), encodeJson(DeadLetter.parse(letter)), {
      expect: { streamName: this.names.stream },
    });
    return String(ack.seq);
  }

  /** Up to `limit` dead letters, oldest first, of one consumer or all; from the sequence `from` on. */
  async list(limit: number, consumer?: DeadLetterConsumer, from = 1): Promise<StoredDeadLetter[]> {
    const filter = consumer ? this.names.subject(consumer) : this.names.subjects;
    const found: StoredDeadLetter[] = [];
    let seq = from;
    while (found.length < limit) {
      const stored = await this.nextFrom(seq, filter);
      if (!stored) break;
      const parsed = DeadLetter.safeParse(decodeJson(stored.data));
      if (parsed.success) found.push({ id: String(stored.seq), letter: parsed.data });
      seq = stored.seq + 1;
    }
    return found;
  }

  /**
   * The first stored message at or after `seq` on `filter`, skipping the gaps replays leave. The
   * stream API's message get with `next_by_subj` (the client library types only the sequence form).
   */
  private async nextFrom(seq: number, filter: string): Promise<{ seq: number; data: Uint8Array } | null> {
    const reply = await this.connection.request(`$JS.API.STREAM.MSG.GET.${this.names.stream}`, encodeJson({ seq, next_by_subj: filter }), { timeout: 5000 });
    const answer = MsgGetReply.parse(decodeJson(reply.data));
    if ('error' in answer) {
      if (answer.error.code === 404) return null;
      throw new Error(`reading the dead-letter stream failed: ${answer.error.description} (${answer.error.code})`);
    }
    return { seq: answer.message.seq, data: Buffer.from(answer.message.data ?? '', 'base64') };
  }

  /** One dead letter by id, or null when it is not stored. */
  async get(id: string): Promise<StoredDeadLetter | null> {
    const jsm = await this.connection.jetstreamManager();
    try {
      const stored = await jsm.streams.getMessage(this.names.stream, { seq: Number(id) });
      const parsed = DeadLetter.safeParse(decodeJson(stored.data));
      return parsed.success ? { id, letter: parsed.data } : null;
    } catch (error) {
      if (NOT_FOUND.test(String((error as Error).message))) return null;
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    const jsm = await this.connection.jetstreamManager();
    await jsm.streams.deleteMessage(this.names.stream, Number(id), false);
  }

  /** How many dead letters each consumer has stored now. */
  async counts(): Promise<Record<DeadLetterConsumer, number>> {
    const jsm = await this.connection.jetstreamManager();
    const info = await jsm.streams.info(this.names.stream, { subjects_filter: this.names.subjects });
    const bySubject = info.state.subjects ?? {};
    return Object.fromEntries(DEAD_LETTER_CONSUMERS.map((c) => [c, bySubject[this.names.subject(c)] ?? 0])) as Record<DeadLetterConsumer, number>;
  }
}

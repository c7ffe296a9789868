import { LedgerEvent, WalletKeys } from '@gateway/billing';
import {
  usageStreamNames,
  type ConsoleDeadLetter,
  type ConsoleDeadLetterPage,
  type DeadLetterConsumer,
  type DeadLetterList,
  type DeadLetterListRequest,
  type DeadLetterReplayReply,
  type DeadLetterReplayRequest,
  type DeadLetterView,
} from '@gateway/contracts';
import { DeadLetterStream, encodeText, NatsBus, type StoredDeadLetter } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { WALLET_REDIS } from '../billing/wallet.module';

/** Characters of a payload shown in a listing. */
const PREVIEW_CHARS = 120;
/** A replay of `all` takes at most this many per call; the operator runs it again for the rest. */
const REPLAY_ALL_LIMIT = 1000;

/** A failed record, as a consumer hands it over. */
export interface DeadLetterInput {
  consumer: DeadLetterConsumer;
  source: string;
  error: string;
  deliveries: number;
  payload: string;
}

/**
 * Owns the accounts side of dead letters: the consumers store here what they could not write (counted
 * per consumer, the count an operator reads with the listing), and the operator lists and replays them
 * to the stream they came from — usage events to JetStream, ledger events to the wallet's Redis stream.
 */
@Injectable()
export class DeadLetterService implements OnModuleInit {
  private readonly logger = new Logger(DeadLetterService.name);
  private readonly stream: DeadLetterStream;
  private readonly deadLettered: Record<DeadLetterConsumer, number> = { usage: 0, ledger: 0 };

  constructor(
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Inject(WALLET_REDIS) private readonly redis: Redis,
    @Inject(WalletKeys) private readonly keys: WalletKeys,
  ) {
    this.stream = new DeadLetterStream(bus.connection, bus.prefix);
  }

  async onModuleInit(): Promise<void> {
    await this.stream.ensure();
  }

  async record(input: DeadLetterInput): Promise<void> {
    await this.stream.ensure();
    const id = await this.stream.add({ ...input, at: new Date().toISOString() });
    this.deadLettered[input.consumer]++;
    this.logger.error(`${input.consumer}: dead-lettered a record after ${input.deliveries} deliveries as ${id}: ${input.error}`);
  }

  async list(request: DeadLetterListRequest): Promise<DeadLetterList> {
    const stored = await this.stream.list(request.limit, request.consumer);
    return { data: stored.map(view), stored: await this.stream.counts(), deadLettered: { ...this.deadLettered } };
  }

  /** A page of dead letters for the operator console: `limit` after the id `after`, and the id the next page starts after. */
  async page(request: { consumer?: DeadLetterConsumer; after?: string; limit: number }): Promise<ConsoleDeadLetterPage> {
    const from = request.after === undefined ? 1 : Number(request.after) + 1;
    // One more than asked tells whether a next page exists.
    const stored = await this.stream.list(request.limit + 1, request.consumer, from);
    const data = stored.slice(0, request.limit).map(view);
    return { data, next: stored.length > request.limit ? data[data.length - 1]!.id : null, stored: await this.stream.counts() };
  }

  /** One dead letter in full, or null when it is not (or no longer) stored. */
  async get(id: string): Promise<ConsoleDeadLetter | null> {
    const stored = await this.stream.get(id);
    if (!stored) return null;
    const { payload, error, ...rest } = stored.letter;
    return { id: stored.id, ...rest, error: printable(error), payload: printable(payload) };
  }

  async replay(request: DeadLetterReplayRequest): Promise<DeadLetterReplayReply> {
    const reply: DeadLetterReplayReply = { replayed: [], missing: [] };
    const letters: StoredDeadLetter[] = [];
    if (request.all) letters.push(...(await this.stream.list(REPLAY_ALL_LIMIT)));
    for (const id of request.ids ?? []) {
      const letter = await this.stream.get(id);
      if (letter) letters.push(letter);
      else reply.missing.push(id);
    }
    for (const stored of letters) {
      await this.republish(stored);
      await this.stream.remove(stored.id);
      reply.replayed.push(stored.id);
    }
    return reply;
  }

  /** Puts a dead letter's record back where its consumer reads. */
  private async republish({ id, letter }: StoredDeadLetter): Promise<void> {
    if (letter.consumer === 'usage') {
      const { subject, stream } = usageStreamNames(this.bus.prefix);
      // The dead letter's id names the replay: a replay retried before the removal is stored once.
      await this.bus.connection
        .jetstream()
        .publish(subject, encodeText(letter.payload), { msgID: `dead-letter-${this.stream.names.stream}-${id}`, expect: { streamName: stream } });
    } else {
      const event = LedgerEvent.parse(JSON.parse(letter.payload));
      const fields = Object.entries(event).flatMap(([name, value]) => (value === undefined ? [] : [name, String(value)]));
      await this.redis.xadd(this.keys.events, '*', ...fields);
    }
  }
}

function view({ id, letter }: StoredDeadLetter): DeadLetterView {
  const { payload, error, ...rest } = letter;
  const preview = printable(payload.slice(0, PREVIEW_CHARS)) + (payload.length > PREVIEW_CHARS ? '…' : '');
  return { id, ...rest, error: printable(error), preview };
}

/**
 * Control characters as \u escapes: a record's NUL or terminal escape sequence (Postgres quotes the
 * refused value in its error) never reaches the operator's screen raw.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

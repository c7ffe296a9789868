import { setTimeout as sleep } from 'node:timers/promises';
import { createInbox, type NatsConnection } from 'nats';
import { z } from 'zod';
import { decodeJson, encodeJson } from './codec';
import type { RequestMux } from './request-mux';

/** The reply subjects a probe names, and those a process answers that it holds. */
export const ProbedReplies = z.array(z.string().min(1).max(512)).max(100_000);

/** Reply subjects per probe message: well under any server's payload limit. */
const REPLIES_PER_PROBE = 2_000;

export interface ProbeTiming {
  /** How often the requests still waiting are looked at. */
  everyMs: number;
  /** A request younger than this is not asked about: most are answered by then. */
  olderThanMs: number;
  /** How long a round gathers the answers of every process. */
  answerMs: number;
  /** Rounds in a row no process claims a request before it fails as lost. */
  misses: number;
}

/**
 * A lost request fails 4.5 to 7 s after it left; a service that holds one is taken for gone only when it
 * answers no probe for 2.5 s in a row (an event loop stalled that long, or a reconnection that slow).
 */
export const PROBE_TIMING: ProbeTiming = { everyMs: 2_000, olderThanMs: 2_000, answerMs: 500, misses: 2 };

function safeDecode(data: Uint8Array): unknown {
  try {
    return decodeJson(data);
  } catch {
    return undefined;
  }
}

/** The replies of `probe` that `holds` says this process holds (none for a malformed probe). */
export function heldOf(probe: Uint8Array, holds: (reply: string) => boolean): string[] {
  const replies = ProbedReplies.safeParse(safeDecode(probe));
  return replies.success ? replies.data.filter(holds) : [];
}

/**
 * A request can vanish between the servers of a cluster: when the server its service is connected to
 * dies with the request in it, the service never gets it and its caller would wait out its timeout (ten
 * minutes for a chat request), while caller and service both stay connected. Every few seconds the probe
 * asks every process which of the requests waiting here for a while it holds, and fails those none claims
 * in `misses` rounds in a row as `lost` (503 with Retry-After). Requests answered in under `olderThanMs`
 * are never asked about: the hot path costs nothing for it.
 */
export class LostRequestProbe {
  private missed = new Map<string, number>();
  private asking = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly connection: NatsConnection,
    private readonly mux: RequestMux,
    private readonly subject: string,
    private readonly timing: ProbeTiming = PROBE_TIMING,
  ) {
    this.timer = setInterval(() => void this.sweep(), timing.everyMs).unref();
    void connection.closed().then(() => this.close());
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    if (this.asking || !this.mux.link.isUp || this.connection.isClosed()) return;
    const suspects = this.mux.unanswered(Date.now() - this.timing.olderThanMs);
    if (suspects.length === 0) {
      this.missed.clear();
      return;
    }
    this.asking = true;
    try {
      const epoch = this.mux.link.epoch;
      const claimed = await this.ask(suspects);
      // A drop of this process's own link fails every waiting request by itself.
      if (!this.mux.link.isUp || this.mux.link.epoch !== epoch) return;
      const missed = new Map<string, number>();
      const lost: string[] = [];
      for (const reply of suspects) {
        if (claimed.has(reply) || !this.mux.waits(reply)) continue;
        const misses = (this.missed.get(reply) ?? 0) + 1;
        if (misses >= this.timing.misses) lost.push(reply);
        else missed.set(reply, misses);
      }
      this.missed = missed;
      this.mux.lose(lost);
    } finally {
      this.asking = false;
    }
  }

  /** The replies of `suspects` some process says it holds, gathered for `answerMs`. */
  private async ask(suspects: readonly string[]): Promise<Set<string>> {
    const claimed = new Set<string>();
    const inbox = createInbox();
    const answers = this.connection.subscribe(inbox, {
      callback: (error, msg) => {
        if (error) return;
        const held = ProbedReplies.safeParse(safeDecode(msg.data));
        if (held.success) for (const reply of held.data) claimed.add(reply);
      },
    });
    try {
      for (let at = 0; at < suspects.length; at += REPLIES_PER_PROBE) {
        this.connection.publish(this.subject, encodeJson(suspects.slice(at, at + REPLIES_PER_PROBE)), { reply: inbox });
      }
    } catch {
      // A probe that cannot leave proves nothing lost.
      answers.unsubscribe();
      return new Set(suspects);
    }
    await sleep(this.timing.answerMs, undefined, { ref: false });
    answers.unsubscribe();
    return claimed;
  }
}

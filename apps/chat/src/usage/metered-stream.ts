import type { ReplyNote, UsageEvent } from '@gateway/contracts';
import { FailoverError } from '@gateway/providers';
import type { Tokens, UsageMeter } from './usage-meter';

/** Where a request's one usage event goes (the usage publisher, durably); it tells `note` what served the request. */
export interface UsageSink {
  record(event: UsageEvent, note?: ReplyNote): void;
}

/** What the request has used so far; asked once, when its usage is recorded. */
export type MeasureUsage = () => Tokens;

/**
 * The usage lifecycle of one metered request, streamed or not, started where the request arrives:
 * whichever of `succeed`, `fail` and `cancel` comes first records the request's single usage event;
 * every later call is a no-op, so a failure caught after an answer was metered adds nothing. The facts
 * go on `meter` as they become known; a stream also says how to `measure` what it delivered, asked once
 * when it ends. A relay calls `succeed` before the frames that end its answer, `fail` when the upstream
 * breaks, and `cancel` in its `finally`, where it counts only if nothing else ended the request: the
 * client went away.
 */
export class MeteredStream {
  private ended = false;
  private measure: MeasureUsage | null = null;

  constructor(
    readonly meter: UsageMeter,
    private readonly sink: UsageSink,
    /** The reply's note (model, channel, tokens for the caller's access line), when the request has a reply. */
    private readonly note?: ReplyNote,
  ) {}

  /** From now on, what the request used is measured by `measure` when it ends. */
  measureWith(measure: MeasureUsage): this {
    this.measure = measure;
    return this;
  }

  /** The usage event has been recorded. */
  get done(): boolean {
    return this.ended;
  }

  succeed(): void {
    if (this.end()) this.sink.record(this.meter.ok(), this.note);
  }

  /** Served from the response cache: the meter holds the stored answer's tokens and the hit's price. */
  hit(): void {
    if (this.end()) this.sink.record(this.meter.event('cache_hit', 200), this.note);
  }

  /** Returns `error`, for the relay to rethrow. */
  fail(error: unknown): unknown {
    if (!this.end()) return error;
    // Every channel failed: the usage names the last one tried.
    if (error instanceof FailoverError && error.attempts.length > 0) this.meter.channelId = error.attempts[error.attempts.length - 1]!.channelId;
    this.sink.record(this.meter.failed(error), this.note);
    return error;
  }

  /** Another service answers and bills the request (an image task in the media service): no usage event here. */
  handOff(): void {
    this.ended = true;
  }

  /** The client went away: what it received is what it used. */
  cancel(): void {
    if (this.end()) this.sink.record(this.meter.event('cancelled', 499), this.note);
  }

  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    if (this.measure) this.meter.tokens = this.measure();
    return true;
  }
}

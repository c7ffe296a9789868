/**
 * Work that must be on the NATS connection before any reply is: a service registers a hook (the
 * durable usage publisher flushes its batch), and the barrier is passed right before the transport
 * writes its replies and stream frames. Both travel on the same connection, in that order, so a client
 * never holds an answer whose record the server has not been sent.
 *
 * Both sides also share one end-of-turn flush: whoever has something to send calls `schedule()`, and
 * once per event-loop turn the hooks run, then the transport's writer, so the records and the replies
 * they account for leave in one socket write rather than one write each.
 */
export class ReplyBarrier {
  private readonly hooks: Array<() => void> = [];
  private writer: () => void = () => undefined;
  private scheduled = false;

  register(hook: () => void): void {
    this.hooks.push(hook);
  }

  /** What the transport writes after the hooks at the end of a turn (its queued replies and frames). */
  setWriter(writer: () => void): void {
    this.writer = writer;
  }

  /** Runs the hooks, then the writer, once at the end of this event-loop turn. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  pass(): void {
    for (const hook of this.hooks) hook();
  }

  /** The hooks, then the writer, now (a transport that closes writes what it still holds). */
  flushNow(): void {
    this.pass();
    this.writer();
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    this.flushNow();
  };
}

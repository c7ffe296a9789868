/**
 * Work that must be on the NATS connection before any reply is: a service registers a hook (the
 * durable usage publisher flushes its batch), and the transport passes the barrier right before it
 * writes each reply or stream frame. Both travel on the same connection, in that order, so a client
 * never holds an answer whose record the server has not been sent.
 */
export class ReplyBarrier {
  private readonly hooks: Array<() => void> = [];

  register(hook: () => void): void {
    this.hooks.push(hook);
  }

  pass(): void {
    for (const hook of this.hooks) hook();
  }
}

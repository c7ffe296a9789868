import { Logger } from '@nestjs/common';

/** Where the state lines go. */
export type RedisStateSink = (line: string) => void;

/**
 * The state of a process's Redis links as its log tells it: one line when the first client loses its link
 * (`lost`), one when the last of them has it back (`back`), never one per client or per retry.
 */
export class RedisStateLog {
  private readonly down = new Set<object>();

  constructor(private readonly sink: RedisStateSink = (line) => new Logger('Redis').warn(line)) {}

  get isDown(): boolean {
    return this.down.size > 0;
  }

  lost(client: object, name: string, error: unknown): void {
    if (this.down.has(client)) return;
    this.down.add(client);
    if (this.down.size === 1) this.sink(`redis lost (${name}): ${(error as Error)?.message ?? String(error)}`);
  }

  back(client: object): void {
    if (!this.down.delete(client)) return;
    if (this.down.size === 0) this.sink('redis back');
  }
}

/** The process's one state log, which every client made by createRedis (and every queue) reports to. */
export const redisState = new RedisStateLog();

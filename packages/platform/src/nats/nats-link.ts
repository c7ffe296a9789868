import { Logger } from '@nestjs/common';
import type { NatsConnection } from 'nats';

/** The part of a connection a link reads: its status events and its end. */
export type LinkSource = Pick<NatsConnection, 'status' | 'closed'>;

/**
 * The connection's link to the server as its status events tell it: down from a `disconnect` until the
 * next `reconnect`, and for good once closed. While it is down nothing sent reaches the server (the
 * client drops what it buffered at each reconnect attempt) and no reply comes in.
 */
export class NatsLink {
  private up = true;
  private drops = 0;
  private closed = false;
  private readonly dropListeners = new Set<() => void>();
  private readonly upListeners = new Set<() => void>();
  private readonly logger = new Logger('NatsLink');

  constructor(connection: LinkSource) {
    void this.watch(connection).catch(() => undefined);
    void connection.closed().then(() => this.end());
  }

  get isUp(): boolean {
    return this.up;
  }

  /** How many times the link has dropped: a request that saw another number when it came in outlived a drop. */
  get epoch(): number {
    return this.drops;
  }

  /** Calls `listener` at each drop; returns a function that stops it. */
  onDrop(listener: () => void): () => void {
    this.dropListeners.add(listener);
    return () => this.dropListeners.delete(listener);
  }

  /** Calls `listener` each time the link is back; returns a function that stops it. */
  onUp(listener: () => void): () => void {
    this.upListeners.add(listener);
    return () => this.upListeners.delete(listener);
  }

  /** Resolves true once the link is up (at once when it is), false after `timeoutMs` or when the connection closes. */
  whenUp(timeoutMs: number): Promise<boolean> {
    if (this.up) return Promise.resolve(true);
    if (this.closed || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (up: boolean) => {
        clearTimeout(timer);
        stop();
        resolve(up);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      const stop = this.onUp(() => done(this.up));
    });
  }

  private async watch(connection: LinkSource): Promise<void> {
    for await (const status of connection.status()) {
      // One line per change of state, naming the server: in a cluster the link comes back on another node.
      if (status.type === 'disconnect') {
        if (this.up) this.logger.warn(`nats lost: ${String(status.data)}`);
        this.drop();
      } else if (status.type === 'reconnect') {
        this.logger.log(`nats back: ${String(status.data)}`);
        this.restore();
      }
    }
  }

  private drop(): void {
    if (!this.up) return;
    this.up = false;
    this.drops++;
    for (const listener of [...this.dropListeners]) listener();
  }

  private restore(): void {
    if (this.closed) return;
    this.up = true;
    for (const listener of [...this.upListeners]) listener();
  }

  private end(): void {
    this.up = false;
    this.closed = true;
    for (const listener of [...this.upListeners]) listener();
  }
}

const links = new WeakMap<LinkSource, NatsLink>();

/** The one link watcher of `connection`, shared by everything that sends on it. */
export function linkOf(connection: LinkSource): NatsLink {
  let link = links.get(connection);
  if (!link) {
    link = new NatsLink(connection);
    links.set(connection, link);
  }
  return link;
}

/**
 * An unbounded queue read by one async iterator: what is pushed comes out in order, then the iteration
 * ends (`end`, which drops what was not read yet) or throws (`fail`, after what was pushed before it).
 */
export class MessageQueue<T> {
  private items: T[] = [];
  private head = 0;
  private failure?: Error;
  private ended = false;
  private wake?: () => void;

  push(item: T): void {
    if (this.ended || this.failure) return;
    this.items.push(item);
    this.signal();
  }

  fail(error: Error): void {
    if (this.ended || this.failure) return;
    this.failure = error;
    this.signal();
  }

  end(): void {
    this.ended = true;
    this.items = [];
    this.head = 0;
    this.signal();
  }

  /** The one reader; `onDone` runs however the reading stops (end, failure, or the reader leaving early). */
  async *iterate(onDone: () => void): AsyncGenerator<T> {
    try {
      for (;;) {
        if (this.head < this.items.length) {
          const item = this.items[this.head++]!;
          if (this.head === this.items.length) {
            this.items = [];
            this.head = 0;
          }
          yield item;
        } else if (this.failure) throw this.failure;
        else if (this.ended) return;
        else await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      onDone();
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

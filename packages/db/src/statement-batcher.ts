/**
 * Gathers the calls made within one turn of the event loop into one call of `run` over all their
 * inputs: under load, hundreds of jobs or requests in flight each read or write one row, and one
 * statement over many rows costs about what one over a single row does (one round trip, one commit). Alone, a
 * call waits one turn at most. When a batch fails, each input is retried on its own, in order, so one
 * bad row fails only its own caller.
 */
export class StatementBatcher<I, O> {
  private pending: { input: I; resolve: (output: O) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    /** Answers every input, in order. */
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 256,
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.run(batch.map((call) => call.input)).then(
      (outputs) => batch.forEach((call, i) => call.resolve(outputs[i]!)),
      (error: unknown) => (batch.length === 1 ? batch[0]!.reject(error) : this.oneByOne(batch)),
    );
  }

  /** In the callers' order, as the batch would have applied them. */
  private async oneByOne(batch: typeof this.pending): Promise<void> {
    for (const call of batch) {
      try {
        call.resolve((await this.run([call.input]))[0]!);
      } catch (error) {
        call.reject(error);
      }
    }
  }
}

/**
 * `items` split into rounds in which no two share a key, in order: a batched compare-and-swap runs one
 * statement per round, so two moves of one row never share a statement and only one can win.
 */
export function distinctRounds<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const rounds: T[][] = [];
  const seen: Set<string>[] = [];
  for (const item of items) {
    const key = keyOf(item);
    const index = seen.findIndex((keys) => !keys.has(key));
    if (index === -1) {
      rounds.push([item]);
      seen.push(new Set([key]));
    } else {
      rounds[index]!.push(item);
      seen[index]!.add(key);
    }
  }
  return rounds;
}

/**
 * What `gatewayctl up` prints of the edge's access lines (one per request): by default none but those of a
 * 5xx, and per app one line every few seconds counting the requests answered, by status class, so that
 * under load the relay costs a substring test per line. `--access-log` prints every line instead.
 */
import type { LogSink } from './app-process';

const ACCESS_MARK = '"msg":"access"';
const STATUS_FIELD = '"status":';
const CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;

/** The status an access line names, read without parsing the line; 0 when it names none. */
export function statusOfAccessLine(line: string): number {
  const at = line.indexOf(STATUS_FIELD);
  if (at === -1) return 0;
  return Number.parseInt(line.slice(at + STATUS_FIELD.length, at + STATUS_FIELD.length + 3), 10) || 0;
}

export class AccessSummary {
  /** Requests counted since the last summary, by app, then by status class (index 0 is 2xx). */
  private readonly counts = new Map<string, number[]>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly print: LogSink,
    private readonly everyMs = 10_000,
  ) {
    this.timer = setInterval(() => this.flush(), everyMs);
    this.timer.unref();
  }

  /** The sink to give the stack: access lines are counted (and a 5xx's printed too), every other line printed. */
  readonly sink: LogSink = (app, line) => {
    if (!line.includes(ACCESS_MARK)) return this.print(app, line);
    const status = statusOfAccessLine(line);
    if (status >= 500) this.print(app, line);
    let counts = this.counts.get(app);
    if (!counts) this.counts.set(app, (counts = [0, 0, 0, 0]));
    const index = Math.floor(status / 100) - 2;
    if (index >= 0 && index < CLASSES.length) counts[index]!++;
  };

  /** Prints, per app, what was counted since the last summary, if anything. */
  flush(): void {
    for (const [app, counts] of this.counts) {
      const total = counts.reduce((sum, n) => sum + n, 0);
      if (total === 0) continue;
      const parts = CLASSES.flatMap((name, i) => (counts[i] ? [`${counts[i]} ${name}`] : []));
      this.print(
        app,
        `${total} requests in the last ${Math.round(this.everyMs / 1000)} s: ${parts.join(', ')} (each request's line: gatewayctl up --access-log)`,
      );
      counts.fill(0);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/**
 * A local webhook receiver for the music specs: records every request as it arrives, can be down for its
 * first N attempts per path, and can hold each answer back for a while (deliveries in flight).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export class WebhookReceiver {
  readonly hits: ReceivedHook[] = [];
  private readonly downFor = new Map<string, number>();
  private server: Server | null = null;
  private base = '';

  constructor(private readonly answerAfterMs = 0) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response.writeHead.bind(response), () => response.end()));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A fresh path on this receiver; it answers 503 to its first `failures` requests. */
  url(path: string, failures = 0): string {
    this.downFor.set(`/${path}`, failures);
    return `${this.base}/${path}`;
  }

  at(path: string): ReceivedHook[] {
    return this.hits.filter((hit) => hit.path === `/${path}`);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(request: IncomingMessage, writeHead: (status: number) => void, end: () => void): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const left = this.downFor.get(path) ?? 0;
    const status = left > 0 ? 503 : 204;
    if (left > 0) this.downFor.set(path, left - 1);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    this.hits.push({ path, headers, body: Buffer.concat(chunks).toString(), status, at: Date.now() });
    if (this.answerAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, this.answerAfterMs));
    writeHead(status);
    end();
  }
}

export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

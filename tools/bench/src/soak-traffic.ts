/**
 * The soak's mixed traffic: closed-loop workers sending chat (unary and streamed, in the three families),
 * bad input and bad keys, each answer checked against what it should be; and key churn through the admin
 * API while the traffic runs (a regenerated or revoked key must stop working at once on the edge).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { AdminClient } from '@gateway/cli';

export type RequestKind = 'oaic' | 'oaic-stream' | 'msgc' | 'msgc-stream' | 'genc' | 'genc-stream' | 'bad-body' | 'bad-key';

/** How often each kind is picked, out of the sum. */
const MIX: ReadonlyArray<[RequestKind, number]> = [
  ['oaic', 3],
  ['oaic-stream', 2],
  ['msgc', 2],
  ['msgc-stream', 1],
  ['genc', 2],
  ['genc-stream', 1],
  ['bad-body', 1],
  ['bad-key', 1],
];
const MIX_TOTAL = MIX.reduce((sum, [, weight]) => sum + weight, 0);

/**
 * Loopback addresses of their own for the bad keys and for each churn cycle: the edge limits failed
 * authentications per client address, and the good traffic's address must not pay for them.
 */
const ATTACKER_ADDRESS = '127.0.0.2';
const churnAddress = (cycle: number) => `127.0.1.${(cycle % 250) + 1}`;

interface Call {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Any of these statuses is the right answer. */
  expect: number[];
  /** Text a complete answer contains (a stream's last event). */
  ends?: string;
}

const user = (text: string) => [{ role: 'user', content: text }];
const genc = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }], generationConfig: { maxOutputTokens: 24 } });

function callOf(kind: RequestKind, key: string, n: number): Call {
  const bearer = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const msgc = { 'x-api-key': key, 'msgc-version': '2023-06-01', 'content-type': 'application/json' };
  const text = `soak request ${n}: tell me something short`;
  switch (kind) {
    case 'oaic':
      return {
        path: '/oaic/v1/chat/completions',
        headers: bearer,
        body: { model: 'sandbox-gpt', messages: user(text), max_tokens: 24 },
        expect: [200],
        ends: '"finish_reason"',
      };
    case 'oaic-stream':
      return {
        path: '/oaic/v1/chat/completions',
        headers: bearer,
        body: { model: 'sandbox-gpt', messages: user(text), max_tokens: 24, stream: true },
        expect: [200],
        ends: 'data: [DONE]',
      };
    case 'msgc':
      return {
        path: '/msgc/v1/messages',
        headers: msgc,
        body: { model: 'sandbox-claude', max_tokens: 24, messages: user(text) },
        expect: [200],
        ends: '"stop_reason"',
      };
    case 'msgc-stream':
      return {
        path: '/msgc/v1/messages',
        headers: msgc,
        body: { model: 'sandbox-claude', max_tokens: 24, messages: user(text), stream: true },
        expect: [200],
        ends: 'message_stop',
      };
    case 'genc':
      return { path: '/genc/v1beta/models/sandbox-gemini:generateContent', headers: bearer, body: genc(text), expect: [200], ends: '"finishReason"' };
    case 'genc-stream':
      return {
        path: '/genc/v1beta/models/sandbox-gemini:streamGenerateContent?alt=sse',
        headers: bearer,
        body: genc(text),
        expect: [200],
        ends: '"finishReason"',
      };
    case 'bad-body':
      return { path: '/oaic/v1/chat/completions', headers: bearer, body: { model: 'sandbox-gpt', messages: 'not a list', max_tokens: -1 }, expect: [400] };
    case 'bad-key':
      // Sent from an address of its own: once it has failed too often the edge refuses it (429) before any lookup.
      return {
        path: '/msgc/v1/messages',
        headers: { ...msgc, 'x-api-key': `sk-soak-unknown-${n}` },
        body: { model: 'sandbox-claude', max_tokens: 8, messages: user(text) },
        expect: [401, 429],
      };
  }
}

function pick(n: number): RequestKind {
  // A fixed stride through the mix: reproducible, and every kind runs from the first seconds on.
  let slot = (n * 7919) % MIX_TOTAL;
  for (const [kind, weight] of MIX) {
    if (slot < weight) return kind;
    slot -= weight;
  }
  return 'oaic';
}

export interface TrafficTally {
  sent: number;
  /** Answers as expected, by kind. */
  ok: Record<RequestKind, number>;
  /** Expected answers by "kind status", for kinds with more than one right answer. */
  statuses: Map<string, number>;
  /** Anything else, by "kind status" (status 0: no answer), with one example body. */
  unexpected: Map<string, { count: number; example: string }>;
  churn: { cycles: number; failures: string[] };
}

export function emptyTally(): TrafficTally {
  const ok = Object.fromEntries(MIX.map(([kind]) => [kind, 0])) as Record<RequestKind, number>;
  return { sent: 0, ok, statuses: new Map(), unexpected: new Map(), churn: { cycles: 0, failures: [] } };
}

function note(tally: TrafficTally, label: string, example: string): void {
  const entry = tally.unexpected.get(label) ?? { count: 0, example: example.slice(0, 300) };
  entry.count++;
  tally.unexpected.set(label, entry);
}

export interface TrafficOptions {
  baseUrl: string;
  key: string;
  concurrency: number;
  /** Requests per second offered across all workers (0: each worker sends its next request as soon as the last is answered). */
  rate: number;
  /** The run stops sending at this time (ms since the epoch) or after this many requests, whichever comes first. */
  until: number;
  maxRequests: number;
  signal: AbortSignal;
}

async function send(agent: Agent, baseUrl: string, call: Call): Promise<{ status: number; text: string }> {
  try {
    const response = await request(`${baseUrl}${call.path}`, {
      method: 'POST',
      headers: call.headers,
      body: JSON.stringify(call.body),
      dispatcher: agent,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    return { status: response.statusCode, text: await response.body.text() };
  } catch (error) {
    return { status: 0, text: (error as Error).message };
  }
}

/** Runs `concurrency` workers, paced at `rate` or closed-loop, until the deadline, the request bound or the signal. */
export async function runTraffic(options: TrafficOptions, tally: TrafficTally): Promise<void> {
  const agent = new Agent({ connections: options.concurrency, keepAliveTimeout: 30_000, pipelining: 1 });
  const attacker = new Agent({ connections: 2, keepAliveTimeout: 30_000, pipelining: 1, localAddress: ATTACKER_ADDRESS });
  const started = Date.now();
  const worker = async () => {
    while (!options.signal.aborted && Date.now() < options.until && tally.sent < options.maxRequests) {
      const n = tally.sent++;
      // Paced: request n leaves at its slot on one schedule shared by all workers, never earlier.
      if (options.rate > 0) {
        const wait = started + (n * 1000) / options.rate - Date.now();
        if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
      }
      const kind = pick(n);
      const call = callOf(kind, options.key, n);
      const answer = await send(kind === 'bad-key' ? attacker : agent, options.baseUrl, call);
      const label = `${kind} ${answer.status}`;
      if (call.expect.includes(answer.status) && (call.ends === undefined || answer.text.includes(call.ends))) {
        tally.ok[kind]++;
        tally.statuses.set(label, (tally.statuses.get(label) ?? 0) + 1);
      } else note(tally, label, answer.text);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    await Promise.all([agent.close(), attacker.close()]);
  }
}

/** Polls until `key` gets `status`; the edges learn of key changes by a NATS broadcast, so allow a moment. */
async function expectStatus(agent: Agent, baseUrl: string, key: string, status: number, what: string, failures: string[]): Promise<void> {
  const deadline = Date.now() + 2000;
  let last = 0;
  while (Date.now() < deadline) {
    last = (await send(agent, baseUrl, callOf('oaic', key, 0))).status;
    if (last === status) return;
    await sleep(50);
  }
  failures.push(`${what}: expected ${status}, still ${last} after 2 s`);
}

/** Create, use, regenerate and revoke a key of the tenant, again and again, while the traffic runs. */
export async function churnKeys(
  admin: AdminClient,
  tenant: string,
  baseUrl: string,
  options: { until: number; intervalMs: number; signal: AbortSignal },
  tally: TrafficTally,
): Promise<void> {
  const { failures } = tally.churn;
  while (!options.signal.aborted && Date.now() < options.until) {
    const agent = new Agent({ connections: 1, localAddress: churnAddress(tally.churn.cycles) });
    const expect = (key: string, status: number, what: string) => expectStatus(agent, baseUrl, key, status, what, failures);
    try {
      const created = await admin.createKey({ tenant, name: `churn-${tally.churn.cycles}` });
      await expect(created.key, 200, 'a new key');
      const regenerated = await admin.regenerateKey(created.id);
      await expect(created.key, 401, 'the key a regeneration replaced');
      await expect(regenerated.key, 200, 'a regenerated key');
      await admin.revokeKey(regenerated.id);
      await expect(regenerated.key, 401, 'a revoked key');
      tally.churn.cycles++;
    } catch (error) {
      failures.push(`admin API: ${(error as Error).message}`);
    } finally {
      await agent.close();
    }
    await sleep(options.intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}

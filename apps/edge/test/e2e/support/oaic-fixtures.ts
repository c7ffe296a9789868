/** Test data for the oaic e2e specs: a tiny PNG, a short WAV, and usage-record lookups in the run's database. */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { e2eEnv } from './e2e-env';

/** A 1x1 PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A mono 16-bit PCM WAV of `ms` milliseconds of a 440 Hz tone. */
export function wavTone(ms = 200, rate = 8000): Buffer {
  const samples = Math.round((rate * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export interface UsageRow {
  request_id: string;
  client_request_id: string | null;
  model_id: string;
  channel_id: string | null;
  upstream_model: string | null;
  channel_priority: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
  outcome: string;
  status: number;
}

/**
 * The usage record of one request, waiting for the durable consumer to write it: by the server's
 * request id (the response's x-request-id), or by the x-request-id the client sent (`by: 'client'`).
 */
export async function usageRecord(requestId: string, timeoutMs = 10_000, by: 'server' | 'client' = 'server'): Promise<UsageRow> {
  const client = new pg.Client({ connectionString: e2eEnv().GW_E2E_DATABASE_URL });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<UsageRow>(
        `SELECT u.request_id, u.client_request_id, u.model_id, u.channel_id, c.upstream_model, c.priority AS channel_priority,
                u.prompt_tokens, u.completion_tokens, u.latency_ms, u.outcome, u.status
           FROM usage_records u LEFT JOIN channels c ON c.id::text = u.channel_id
          WHERE ${by === 'server' ? 'u.request_id' : 'u.client_request_id'} = $1`,
        [requestId],
      );
      if (rows[0]) return rows[0];
      if (Date.now() > deadline) throw new Error(`no usage record for request ${requestId} after ${timeoutMs} ms`);
      await sleep(100);
    }
  } finally {
    await client.end();
  }
}

/**
 * The response cache section of `npm run bench:chat`, on the bench's own stack: a tenant with the cache
 * on (`read_write`, sampled requests too) beside one with it off, same models, same bodies.
 *
 * - A hit at concurrency 1 against the gateway answering alone (`GET /oaic/v1/models`, answered by the
 *   edge from its own cache, same key): what serving a stored answer adds.
 * - A miss (every body new, so it is looked up, sent upstream and stored) against the cache off.
 * - Hits at 64 connections against uncached requests on the 20 ms upstream.
 *
 * Each c=1 measure alternates its two sides in blocks of 100 so drift hits both alike.
 */
import { Agent, request } from 'undici';
import type { AdminClient } from '@gateway/cli';
import { ms, signedMs } from './bench-format';
import { closedLoad } from './closed-load';
import { formatTable } from './translation.section';

const SAMPLES = Number(process.env.BENCH_CACHE_SAMPLES ?? 2000);
const RPS_SECONDS = Number(process.env.BENCH_RPS_SECONDS ?? 10);
const BLOCK = 100;

const agent = new Agent({ connections: 8, keepAliveTimeout: 60_000 });

interface CacheBenchSetup {
  admin: AdminClient;
  baseUrl: string;
  stamp: string;
}

type Call = () => Promise<{ ms: number; cache: string | undefined }>;

function chatCall(baseUrl: string, key: string, body: () => string): Call {
  return async () => {
    const started = performance.now();
    const response = await request(`${baseUrl}/oaic/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body(),
      dispatcher: agent,
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} from the gateway`);
    const cache = response.headers['x-gateway-cache'];
    return { ms: performance.now() - started, cache: typeof cache === 'string' ? cache : undefined };
  };
}

function modelsCall(baseUrl: string, key: string): Call {
  return async () => {
    const started = performance.now();
    const response = await request(`${baseUrl}/oaic/v1/models`, { headers: { authorization: `Bearer ${key}` }, dispatcher: agent });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} from the gateway`);
    return { ms: performance.now() - started, cache: undefined };
  };
}

/** One trip to the chat service that generates nothing: what any answer from chat costs at least. */
function countTokensCall(baseUrl: string, key: string): Call {
  return async () => {
    const started = performance.now();
    const response = await request(`${baseUrl}/msgc/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'msgc-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox-gpt', messages: [{ role: 'user', content: 'Benchmark the gateway with a short question.' }] }),
      dispatcher: agent,
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} from the gateway's count_tokens`);
    return { ms: performance.now() - started, cache: undefined };
  };
}

const question = (model: string, text: string) => JSON.stringify({ model, messages: [{ role: 'user', content: text }] });

/** p50 of each side, alternating blocks; every answer of a side must carry its `expect` (when given). */
async function alternate(sides: { call: Call; expect?: string }[]): Promise<number[]> {
  const samples: number[][] = sides.map(() => []);
  for (let done = 0; done < SAMPLES; done += BLOCK) {
    for (const [side, { call, expect }] of sides.entries()) {
      for (let i = 0; i < BLOCK; i++) {
        const answer = await call();
        if (expect !== undefined && answer.cache !== expect) throw new Error(`expected x-gateway-cache: ${expect}, got ${answer.cache}`);
        samples[side]!.push(answer.ms);
      }
    }
  }
  return samples.map((values) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!);
}

export async function benchCache({ admin, baseUrl, stamp }: CacheBenchSetup): Promise<string> {
  const on = `bench-cache-${stamp}`;
  const off = `bench-nocache-${stamp}`;
  for (const slug of [on, off]) {
    await admin.createTenant({ slug });
    await admin.topup({ tenant: slug, amount: '100000.00' });
  }
  await admin.setCache({ tenant: on, mode: 'read_write', sampled: true });
  const keyOn = (await admin.createKey({ tenant: on, name: 'bench-cache' })).key;
  const keyOff = (await admin.createKey({ tenant: off, name: 'bench-nocache' })).key;

  let fresh = 0;
  const hit = chatCall(baseUrl, keyOn, () => question('sandbox-gpt', 'Benchmark the gateway with a short question.'));
  const miss = chatCall(baseUrl, keyOn, () => question('sandbox-gpt', `Benchmark question ${fresh++}.`));
  const uncached = chatCall(baseUrl, keyOff, () => question('sandbox-gpt', `Benchmark question ${fresh++}.`));
  const alone = modelsCall(baseUrl, keyOn);
  const hop = countTokensCall(baseUrl, keyOn);

  await hit();
  for (let i = 0; i < 1000; i++) await Promise.all([hit(), alone(), hop(), miss(), uncached()]);
  const [aloneP50 = NaN, hopP50 = NaN, hitP50 = NaN] = await alternate([{ call: alone }, { call: hop }, { call: hit, expect: 'hit' }]);
  const [offP50 = NaN, missP50 = NaN] = await alternate([{ call: uncached }, { call: miss, expect: 'miss' }]);

  const slow = { url: `${baseUrl}/oaic/v1/chat/completions`, model: 'sandbox-gpt-slow', connections: 64, seconds: RPS_SECONDS };
  const uncachedRps = await closedLoad({ ...slow, key: keyOff });
  const hitRps = await closedLoad({ ...slow, key: keyOn });

  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const rows: string[][] = [
    ['measure', 'baseline', 'cache', 'added / ratio', 'target', ''],
    [
      'hit p50, c=1 (baseline: the gateway answering alone, GET /models)',
      ms(aloneP50),
      ms(hitP50),
      signedMs(hitP50 - aloneP50),
      '≤ +0.5 ms',
      verdict(hitP50 - aloneP50 <= 0.5),
    ],
    ['  the same against one chat-service trip (count_tokens)', ms(hopP50), ms(hitP50), signedMs(hitP50 - hopP50), '', ''],
    ['miss p50, c=1 (baseline: cache off)', ms(offP50), ms(missP50), signedMs(missP50 - offP50), '≤ +0.1 ms', verdict(missP50 - offP50 <= 0.1)],
    [
      'RPS, 64 conn, 20 ms upstream (baseline: uncached)',
      uncachedRps.rps.toFixed(0),
      hitRps.rps.toFixed(0),
      `${(hitRps.rps / uncachedRps.rps).toFixed(2)}x`,
      '≥ 3x',
      verdict(hitRps.rps >= 3 * uncachedRps.rps),
    ],
    ['  errors', String(uncachedRps.errors), String(hitRps.errors), '', '0', verdict(uncachedRps.errors + hitRps.errors === 0)],
  ];
  await agent.close();
  return formatTable(rows);
}

/**
 * The translated-path section of `npm run bench:chat`: what translating between families costs on top of
 * a same-protocol pass-through. Each path's added latency is the gateway's p50 minus the p50 of calling its
 * sandbox upstream directly; translation's cost is a translated path's added latency minus the pass-through
 * path's of the same family (msgc → OpenAI against msgc → Anthropic, genc → Anthropic against genc → Gemini).
 */
import { Agent, request } from 'undici';
import { ms as formatMs, signedMs } from './bench-format';

const QUESTION = 'Benchmark the gateway with a short question.';
/** Target: translation adds at most this much to the p50. */
const TARGET_MS = 0.3;

interface Call {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface TranslationBenchOptions {
  sandboxUrl: string;
  gatewayUrl: string;
  key: string;
  samples: number;
}

const json = { 'content-type': 'application/json' };
const msgcBody = (model: string) => JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: QUESTION }] });
const gencBody = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: QUESTION }] }] });

function calls(options: TranslationBenchOptions) {
  const { sandboxUrl, gatewayUrl, key } = options;
  const msgc = { ...json, 'x-api-key': key, 'msgc-version': '2023-06-01' };
  const genc = { ...json, authorization: `Bearer ${key}` };
  const gencUrl = (model: string) => `${gatewayUrl}/genc/v1beta/models/${model}:generateContent`;
  return {
    direct: {
      openai: {
        url: `${sandboxUrl}/openai/v1/chat/completions`,
        headers: { ...json, authorization: 'Bearer sk-sandbox-upstream' },
        body: JSON.stringify({ model: 'sandbox-gpt', messages: [{ role: 'user', content: QUESTION }] }),
      },
      anthropic: {
        url: `${sandboxUrl}/anthropic/v1/messages`,
        headers: { ...json, 'x-api-key': 'sk-ant-sandbox-upstream', 'anthropic-version': '2023-06-01' },
        body: msgcBody('sandbox-claude'),
      },
      gemini: {
        url: `${sandboxUrl}/gemini/v1beta/models/sandbox-gemini:generateContent`,
        headers: { ...json, 'x-goog-api-key': 'sandbox-gemini-upstream' },
        body: gencBody,
      },
    },
    gateway: {
      msgcPass: { url: `${gatewayUrl}/msgc/v1/messages`, headers: msgc, body: msgcBody('sandbox-claude') },
      msgcToOpenai: { url: `${gatewayUrl}/msgc/v1/messages`, headers: msgc, body: msgcBody('sandbox-gpt') },
      gencPass: { url: gencUrl('sandbox-gemini'), headers: genc, body: gencBody },
      gencToAnthropic: { url: gencUrl('sandbox-claude'), headers: genc, body: gencBody },
    },
  };
}

async function once(agent: Agent, call: Call): Promise<number> {
  const started = performance.now();
  const response = await request(call.url, { method: 'POST', headers: call.headers, body: call.body, dispatcher: agent });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} from ${call.url}`);
  return performance.now() - started;
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Sequential latency of every path, taken round-robin one request at a time so drift on a busy machine hits all alike. */
async function measure(agent: Agent, paths: Record<string, Call>, samples: number): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((name) => [name, []]));
  for (let i = 0; i < 100; i++) for (const call of Object.values(paths)) await once(agent, call);
  for (let i = 0; i < samples; i++) {
    for (const [name, call] of Object.entries(paths)) times[name]!.push(await once(agent, call));
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, p50(values)]));
}

const ms = (value: number) => formatMs(value, 3);
const signed = (value: number) => signedMs(value, 3);

/** Table rows (header first) for the translated paths. */
export async function benchTranslation(options: TranslationBenchOptions): Promise<string[][]> {
  const agent = new Agent({ connections: 8, keepAliveTimeout: 60_000 });
  try {
    const { direct, gateway } = calls(options);
    const p = await measure(agent, { ...direct, ...gateway }, options.samples);
    const added = {
      msgcPass: p.msgcPass! - p.anthropic!,
      msgcToOpenai: p.msgcToOpenai! - p.openai!,
      gencPass: p.gencPass! - p.gemini!,
      gencToAnthropic: p.gencToAnthropic! - p.anthropic!,
    };
    const row = (label: string, gatewayP50: number, directP50: number, add: number, translation: string, target: string, verdict: string) => [
      label,
      ms(directP50),
      ms(gatewayP50),
      signed(add),
      translation,
      target,
      verdict,
    ];
    const cost = (translated: number, pass: number) => translated - pass;
    const msgcCost = cost(added.msgcToOpenai, added.msgcPass);
    const gencCost = cost(added.gencToAnthropic, added.gencPass);
    const verdict = (value: number) => (value <= TARGET_MS ? 'PASS' : 'MISS');
    return [
      ['translated path (p50, c=1)', 'direct upstream', 'gateway', 'added', 'translation', 'target', ''],
      row('msgc → Anthropic (pass-through)', p.msgcPass!, p.anthropic!, added.msgcPass, '', '', ''),
      row('msgc → OpenAI (translated)', p.msgcToOpenai!, p.openai!, added.msgcToOpenai, signed(msgcCost), `≤ +${TARGET_MS} ms`, verdict(msgcCost)),
      row('genc → Gemini (pass-through)', p.gencPass!, p.gemini!, added.gencPass, '', '', ''),
      row('genc → Anthropic (translated)', p.gencToAnthropic!, p.anthropic!, added.gencToAnthropic, signed(gencCost), `≤ +${TARGET_MS} ms`, verdict(gencCost)),
    ];
  } finally {
    await agent.close();
  }
}

export function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
}

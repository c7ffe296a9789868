/**
 * Operating the gateway, on a stack of its own started as `npm start` starts it (supervised), with traces
 * exported to an OTLP receiver in this process: one chat request is one trace through edge, chat and the
 * upstream call; every app serves /metrics, /healthz and /readyz; the access line names the request and
 * no secret; kill -9 of chat under load is repaired by the supervisor while the other apps run on; SIGTERM
 * drains the edge's open streams to their end and refuses new connections.
 */
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { chat, eventually, withSql } from '../support/billing-fixtures';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { SPEC_STACK_ENV } from '../support/stack-env';

const SLOW_STREAM_MODEL = 'ops-slow-stream';
/** OTLP's span kinds. */
const SERVER = 2;
const CLIENT = 3;

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await request(url, { headersTimeout: 5000, bodyTimeout: 5000 });
  return { status: response.statusCode, text: await response.body.text() };
}

function openStream(base: string, key: string, model: string) {
  return request(`${base}/oaic/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'stream, slowly' }] }),
  });
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('operating the gateway', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  let receiver: OtlpReceiver;
  let key: { id: string; key: string };
  const lines: string[] = [];
  const logFile = path.join(os.tmpdir(), `gateway-ops-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    db = await createTestDatabase(undefined, 'ops');
    stack = await launchStack({
      supervise: true,
      removeNamespaceOnStop: true,
      natsPrefix: `ops${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-ops-objects-')),
      migrate: false,
      // A request the killed chat held fails after CHAT_TIMEOUT_MS instead of the default minute.
      env: { ...SPEC_STACK_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, SHUTDOWN_GRACE_SECONDS: '20', CHAT_TIMEOUT_MS: '5000' },
      sink: (app, line) => {
        lines.push(`[${app}] ${line}`);
        log.write(`[${app}] ${line}\n`);
      },
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    const config = (await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env)) as { models: unknown[] };
    config.models.push({
      id: SLOW_STREAM_MODEL,
      displayName: 'A stream of one event every 250 ms',
      capability: 'chat',
      provider: 'sandbox-openai',
      upstreamModel: 'sandbox-gpt@chunk=250',
      prices: { inputPerMTok: '0.50', outputPerMTok: '1.50' },
    });
    await admin.apply(config);
    await admin.createTenant({ slug: 'ops' });
    await admin.topup({ tenant: 'ops', amount: '100.00' });
    key = await admin.createKey({ tenant: 'ops' });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await db?.drop();
    log.end();
  });

  it('makes one chat request one trace: the edge span, the chat span and the upstream span, with GenAI attributes', async () => {
    const answer = await chat(key.key, 'trace this', { base: stack.baseUrl });
    expect(answer.status).toBe(200);
    const spans = await eventually(
      `the request's spans (logs: ${logFile})`,
      async () => {
        const edge = receiver.spans.find((s) => s.service === 'edge' && s.attributes['gateway.request.id'] === answer.requestId);
        return edge ? receiver.spans.filter((s) => s.traceId === edge.traceId) : [];
      },
      (found) => found.some((s) => s.kind === CLIENT),
      15_000,
    );
    const edge = spans.find((s) => s.service === 'edge')!;
    const handler = spans.find((s) => s.service === 'chat' && s.kind === SERVER)!;
    const upstream = spans.find((s) => s.service === 'chat' && s.kind === CLIENT)!;
    expect(edge.kind).toBe(SERVER);
    expect(edge.attributes).toMatchObject({
      'http.route': '/oaic/v1/chat/completions',
      'http.response.status_code': 200,
      'gen_ai.request.model': 'sandbox-gpt',
    });
    expect(edge.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(handler.parentSpanId).toBe(edge.spanId);
    expect(handler.attributes).toMatchObject({ 'gen_ai.request.model': 'sandbox-gpt', 'gateway.tenant.id': expect.any(String) });
    expect(handler.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(handler.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(upstream.parentSpanId).toBe(handler.spanId);
    expect(upstream.attributes).toMatchObject({ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'sandbox-gpt', 'http.response.status_code': 200 });
  });

  it('logs one access line per request with its ids, and never the key or the prompt', async () => {
    const prompt = `a prompt that stays private ${randomBytes(6).toString('hex')}`;
    const answer = await chat(key.key, prompt, { base: stack.baseUrl });
    expect(answer.status).toBe(200);
    const access = await eventually(
      'the access line',
      async () =>
        lines
          .filter((line) => line.startsWith('[edge] {'))
          .map((line) => JSON.parse(line.slice('[edge] '.length)) as Record<string, unknown>)
          .filter((record) => record.msg === 'access' && record.requestId === answer.requestId),
      (found) => found.length > 0,
    );
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 'info',
      app: 'edge',
      keyId: key.id,
      tenantId: expect.any(String),
      family: 'oaic',
      route: 'oaic.chat',
      model: 'sandbox-gpt',
      channel: expect.any(String),
      status: 200,
      latencyMs: expect.any(Number),
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
    });
    const everything = lines.join('\n');
    expect(everything).not.toContain(key.key);
    expect(everything).not.toContain(prompt);
    expect(everything).not.toContain('sk-sandbox-upstream');
  });

  it('serves /metrics, /healthz and /readyz on every app, with the token counter, the first-token histogram and the consumer lag', async () => {
    const stream = await openStream(stack.baseUrl, key.key, 'sandbox-gpt');
    expect(await stream.body.text()).toContain('data: [DONE]');

    const edge = await get(`${stack.baseUrl}/metrics`);
    expect(edge.text).toMatch(/gateway_time_to_first_token_seconds_bucket\{[^}]*model="sandbox-gpt"/);
    expect(edge.text).toMatch(/gateway_requests_total\{family="oaic",route="oaic.chat",model="sandbox-gpt",status="200"\} \d+/);
    const chatMetrics = await eventually(
      'chat token series',
      () => get(`${stack.metricsUrls.chat}/metrics`),
      (r) => r.text.includes('gateway_tokens_total{'),
    );
    expect(chatMetrics.text).toMatch(/gateway_tokens_total\{model="sandbox-gpt",direction="input",tenant=""\} \d+/);
    expect(chatMetrics.text).toMatch(/gateway_upstream_duration_seconds_count\{channel="[^"]+",system="openai"\} \d+/);
    const accounts = await get(`${stack.metricsUrls.accounts}/metrics`);
    expect(accounts.text).toMatch(/gateway_consumer_lag\{consumer="[^"]+"\} \d+/);
    for (const [app, url] of Object.entries(stack.metricsUrls)) {
      expect({ app, ...(await get(`${url}/healthz`)) }).toMatchObject({ app, status: 200 });
      expect({ app, ...(await get(`${url}/readyz`)) }).toMatchObject({ app, status: 200 });
      expect((await get(`${url}/metrics`)).text).toContain('process_cpu_user_seconds_total');
    }
  });

  it('restarts chat killed with -9 under load (the restart begins within 5 s); the other apps run on and every answered request has its usage row', async () => {
    const others = stack.processes.filter((p) => p.name !== 'chat').map((p) => ({ name: p.name, pid: p.pid }));
    let stop = false;
    const answered: string[] = [];
    const client = async () => {
      while (!stop) {
        const result = await chat(key.key, 'load', { base: stack.baseUrl, maxTokens: 16 }).catch(() => null);
        if (result?.status === 200) answered.push(result.requestId);
        else await sleep(50);
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await sleep(1000);
    const killed = stack.processes.find((p) => p.name === 'chat')!;
    const killedAt = Date.now();
    process.kill(killed.pid!, 'SIGKILL');
    const current = () => stack.processes.find((p) => p.name === 'chat')!;
    await eventually(
      'a new chat process',
      async () => current() !== killed && current().running,
      (started) => started,
      5000,
    );
    const restartedAfterMs = Date.now() - killedAt;
    // How soon it answers is its boot time: about 1.5 s on an idle machine of two cores, longer on a loaded one.
    await eventually(
      'the new chat ready',
      async () => (await get(`${stack.metricsUrls.chat}/readyz`).catch(() => ({ status: 0 }))).status,
      (status) => status === 200,
      30_000,
    );
    const answeredBefore = answered.length;
    // Requests the killed process held fail after CHAT_TIMEOUT_MS; then the clients are answered again.
    await eventually(
      'answers from the new chat',
      async () => answered.length,
      (n) => n > answeredBefore + 10,
      20_000,
    );
    stop = true;
    await Promise.all(clients);

    expect(restartedAfterMs).toBeLessThan(5000);
    expect(answered.length).toBeGreaterThan(answeredBefore);
    expect(lines.some((line) => line.startsWith('[stack] chat was killed by a signal; restarting'))).toBe(true);
    expect(stack.processes.filter((p) => p.name !== 'chat').map((p) => ({ name: p.name, pid: p.pid }))).toEqual(others);
    expect(stack.processes.every((p) => p.running)).toBe(true);
    const recorded = await eventually(
      'usage rows of the answered requests',
      () =>
        withSql(
          async (sql) =>
            Number(
              (await sql.query<{ n: string }>("SELECT count(*) AS n FROM usage_records WHERE request_id = ANY($1) AND outcome = 'ok'", [answered])).rows[0]!.n,
            ),
          db.url,
        ),
      (n) => n === answered.length,
      45_000,
    );
    expect(recorded).toBe(answered.length);
  }, 90_000);

  it('drains the edge on SIGTERM: 100 open streams end with [DONE], a new connection is refused', async () => {
    await eventually(
      'the gateway ready',
      async () => (await get(`${stack.baseUrl}/readyz`).catch(() => ({ status: 0 }))).status,
      (s) => s === 200,
      30_000,
    );
    const edge = stack.processes.find((p) => p.name === 'edge')!;
    const port = stack.edges[0]!.port;
    const streams = await Promise.all(Array.from({ length: 100 }, () => openStream(stack.baseUrl, key.key, SLOW_STREAM_MODEL)));
    expect(streams.map((s) => s.statusCode)).toEqual(Array(100).fill(200));
    const bodies = Promise.all(streams.map((s) => s.body.text()));
    process.kill(edge.pid!, 'SIGTERM');
    await eventually(
      'the listener closed',
      () => connects(port),
      (open) => !open,
      2000,
    );
    const texts = await bodies;
    expect(texts.filter((text) => text.trimEnd().endsWith('data: [DONE]'))).toHaveLength(100);
    expect(await edge.exited).toBe(0);
  }, 60_000);
});

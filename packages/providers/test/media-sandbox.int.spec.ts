// The media vendor transforms (OpenAI videos, DashScope tasks, Kling-style native) against the sandbox.
import { GatewayError } from '@gateway/contracts';
import { buildSandboxApp } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';
import {
  type ChannelTarget,
  closeUpstreamConnections,
  klingBearer,
  type MediaJob,
  type MediaPollResult,
  type MediaVendor,
  mediaVendorOf,
  readBodyBuffer,
  readBodyJson,
  readBodyText,
  sendUpstream,
} from '../src';

let app: FastifyInstance;
let base: string;

const channel = (protocol: ChannelTarget['protocol'], baseUrl: string, upstreamModel: string, apiKey = 'sk-sandbox-upstream'): ChannelTarget => ({
  id: `ch-${protocol}`,
  providerId: `sandbox-${protocol}`,
  protocol,
  baseUrl: `${base}${baseUrl}`,
  apiKey,
  upstreamModel,
  priority: 0,
  weight: 1,
});

const job = (overrides: Partial<MediaJob> = {}): MediaJob => ({
  output: 'video',
  nativeKind: 'text2video',
  prompt: 'a lighthouse at dusk',
  seconds: 5,
  ...overrides,
});

async function submit(vendor: MediaVendor, target: ChannelTarget, asked: MediaJob) {
  const response = await sendUpstream(vendor.submitRequest(target, asked), { timeoutMs: 5000 });
  if (response.status >= 300) throw vendor.toError(response.status, await readBodyText(response.body), target);
  return vendor.parseSubmit(await readBodyJson(response.body), target);
}

async function pollUntilDone(vendor: MediaVendor, target: ChannelTarget, id: string, asked: MediaJob): Promise<MediaPollResult[]> {
  const seen: MediaPollResult[] = [];
  for (let i = 0; i < 100; i++) {
    const response = await sendUpstream(vendor.pollRequest(target, id, asked), { timeoutMs: 5000 });
    expect(response.status).toBe(200);
    const result = vendor.parsePoll(await readBodyJson(response.body), target, id);
    seen.push(result);
    if (result.state === 'succeeded' || result.state === 'failed') return seen;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error('the task never ended');
}

async function download(url: string, headers: Record<string, string> = {}) {
  const response = await sendUpstream({ method: 'GET', url, headers, stream: false });
  return { status: response.status, bytes: await readBodyBuffer(response.body, 10_000_000) };
}

beforeAll(async () => {
  app = (await buildSandboxApp()).app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await closeUpstreamConnections();
  await app.close();
});

describe('media vendors against the sandbox', () => {
  it('OpenAI videos: queued, in progress, completed, and the MP4 bytes with the channel key', async () => {
    const vendor = mediaVendorOf('openai')!;
    // A task of a minute is still queued or in progress when it is first read, however busy the machine.
    const long = channel('openai', '/openai/v1', 'sandbox-sora@task=60000,steps=3');
    const waiting = (await submit(vendor, long, job({ seconds: 4 }))) as { kind: string; upstreamTaskId: string };
    expect(waiting.kind).toBe('task');
    const response = await sendUpstream(vendor.pollRequest(long, waiting.upstreamTaskId, job()), { timeoutMs: 5000 });
    expect(['pending', 'running']).toContain(vendor.parsePoll(await readBodyJson(response.body), long, waiting.upstreamTaskId).state);

    const target = channel('openai', '/openai/v1', 'sandbox-sora@task=300,steps=3');
    const submitted = await submit(vendor, target, job({ seconds: 4 }));
    expect(submitted.kind).toBe('task');
    const upstreamId = (submitted as { upstreamTaskId: string }).upstreamTaskId;
    const seen = await pollUntilDone(vendor, target, upstreamId, job());
    const done = seen.at(-1)!;
    expect(done.state).toBe('succeeded');
    const asset = (done as Extract<MediaPollResult, { state: 'succeeded' }>).assets[0]!;
    const file = await download(asset.url, asset.headers);
    expect(file.status).toBe(200);
    expect(file.bytes.toString('ascii', 4, 8)).toBe('ftyp');
  });

  it('DashScope: the async video task ends SUCCEEDED with a temporary URL that expires; images answer at once', async () => {
    const vendor = mediaVendorOf('dashscope')!;
    const target = channel('dashscope', '/dashscope/api/v1', 'wan-video@task=200');
    const submitted = await submit(vendor, target, job());
    const seen = await pollUntilDone(vendor, target, (submitted as { upstreamTaskId: string }).upstreamTaskId, job());
    const done = seen.at(-1) as Extract<MediaPollResult, { state: 'succeeded' }>;
    expect(done.state).toBe('succeeded');
    expect(done.usage.seconds).toBe(5);
    expect((await download(done.assets[0]!.url)).status).toBe(200);
    // A URL that expires 50 ms after its task ended, read once more than that has passed since it was seen done.
    const expiring = channel('dashscope', '/dashscope/api/v1', 'wan-video@task=100,expire=50');
    const short = await submit(vendor, expiring, job());
    const ended = (await pollUntilDone(vendor, expiring, (short as { upstreamTaskId: string }).upstreamTaskId, job())).at(-1) as Extract<
      MediaPollResult,
      { state: 'succeeded' }
    >;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await download(ended.assets[0]!.url)).status).toBe(403);

    const image = await submit(vendor, channel('dashscope', '/dashscope/api/v1', 'wan-image'), job({ output: 'image', images: 2, size: '1024x1024' }));
    expect(image.kind).toBe('done');
    const assets = (image as Extract<typeof image, { kind: 'done' }>).assets;
    expect(assets).toHaveLength(2);
    expect((await download(assets[0]!.url)).bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('Kling-style: JWT auth, base name + mode, a mid-task failure, and a refusal as a GatewayError', async () => {
    const vendor = mediaVendorOf('kling')!;
    const target = channel('kling', '/kling', 'sandbox-kling@task=100', 'ak-sandbox:sk-sandbox');
    expect(klingBearer('ak:sk').split('.')).toHaveLength(3);
    const submitted = await submit(vendor, target, job({ mode: 'pro' }));
    const seen = await pollUntilDone(vendor, target, (submitted as { upstreamTaskId: string }).upstreamTaskId, job());
    expect(seen.at(-1)!.state).toBe('succeeded');

    const failing = channel('kling', '/kling', 'sandbox-kling@task=100,taskfail=mid', 'ak-sandbox:sk-sandbox');
    const doomed = await submit(vendor, failing, job());
    const ended = await pollUntilDone(vendor, failing, (doomed as { upstreamTaskId: string }).upstreamTaskId, job());
    expect(ended.at(-1)).toMatchObject({ state: 'failed' });

    const refused = channel('kling', '/kling', 'sandbox-kling@taskfail=submit', 'ak-sandbox:sk-sandbox');
    await expect(submit(vendor, refused, job())).rejects.toBeInstanceOf(GatewayError);
    await expect(submit(vendor, refused, job())).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

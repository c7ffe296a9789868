/**
 * One request must never take the edge down: bodies over a route's limit are answered 413 in the
 * family's dialect naming the limit, before anything reaches the bus; bodies over one bus message on the
 * chat families go by claim check; multipart forms over their limits are answered 400 at once, and
 * forms cut short leave no descriptor and no object behind. The edge's pid is the same after each case.
 */
import type { Family } from '@gateway/contracts';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { filesUnder, listenerPid, openDescriptors } from './support/edge-process';
import { dialectViolation } from './support/error-dialects';
import { baseUrl, createTenantWithKey, e2eEnv, type TenantWithKey } from './support/gateway';

const MB = 1024 * 1024;

interface Answer {
  status: number;
  text: string;
  contentType: string | undefined;
}

async function post(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const response = await request(`${baseUrl()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const contentType = response.headers['content-type'];
  return { status: response.statusCode, text: await response.body.text(), contentType: Array.isArray(contentType) ? contentType[0] : contentType };
}

/**
 * Writes `head` and `body` on a socket of its own and never finishes the request (a client that hangs,
 * or one that goes away with `abortAfterMs`); resolves with the answer, or status 0 when none comes.
 */
function hungRequest(head: string, body: Buffer, options: { abortAfterMs?: number; timeoutMs?: number } = {}): Promise<Answer> {
  const url = new URL(baseUrl());
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (answer: Answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ status: 0, text: 'no answer', contentType: undefined }), options.timeoutMs ?? 10_000);
    if (options.abortAfterMs !== undefined) setTimeout(() => finish({ status: -1, text: 'aborted', contentType: undefined }), options.abortAfterMs);
    socket.on('error', () => finish({ status: 0, text: 'socket error', contentType: undefined }));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const raw = Buffer.concat(chunks).toString('latin1');
      const end = raw.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end))?.[1] ?? NaN);
      if (!Number.isFinite(length) || raw.length < end + 4 + length) return;
      finish({
        status: Number(raw.slice(9, 12)),
        text: Buffer.from(raw.slice(end + 4, end + 4 + length), 'latin1').toString('utf8'),
        contentType: /\r\ncontent-type: *([^\r]+)/i.exec(raw.slice(0, end))?.[1],
      });
    });
    socket.on('close', () => finish({ status: 0, text: 'closed without an answer', contentType: undefined }));
    socket.write(head);
    socket.write(body);
  });
}

/**
 * Writes `head`, then `chunks` of the body `gapMs` apart, as a slow client does, then reads to the end;
 * resolves with the answer's status and the first socket error (a reset under the client's writes), if any.
 */
function slowRequest(head: string, chunks: Buffer[], gapMs: number): Promise<{ status: number; error: string | undefined }> {
  const url = new URL(baseUrl());
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => resolve({ status: Number(received.slice(9, 12)) || 0, error }));
    const write = async () => {
      socket.write(head);
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        await new Promise<void>((done) => socket.write(chunk, () => done()));
        await sleep(gapMs);
      }
      socket.end();
    };
    void write();
  });
}

const BOUNDARY = 'limitsboundary';
const field = (name: string, value: string) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (filename: string, extraHeader = '') =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n${extraHeader}\r\n`;

function formHead(path: string, key: string, declaredBytes: number): string {
  const url = new URL(baseUrl());
  return [
    `POST ${path} HTTP/1.1`,
    `host: ${url.host}`,
    `authorization: Bearer ${key}`,
    `content-type: multipart/form-data; boundary=${BOUNDARY}`,
    `content-length: ${declaredBytes}`,
    '',
    '',
  ].join('\r\n');
}

function expectDialect(family: Family, answer: Answer): void {
  expect({ family, violation: dialectViolation(family, answer.status, answer.text, answer.contentType) }).toEqual({ family, violation: null });
}

/** Runs `count` jobs, `width` at a time. */
async function inWaves<T>(count: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, i) => job(start + i)))));
  }
  return results;
}

describe('request limits at the edge', () => {
  let tenant: TenantWithKey;
  let pid: number;
  const bearer = () => ({ authorization: `Bearer ${tenant.key}` });

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'limits', balance: '100000.00' });
    pid = await listenerPid(baseUrl());
  });

  afterEach(async () => {
    // Whatever a case sent, the same edge process answers the next one.
    expect(await listenerPid(baseUrl())).toBe(pid);
  });

  const tooLarge: Array<{ family: Family; path: string; body: () => string; auth: boolean }> = [
    {
      family: 'oaic',
      path: '/oaic/v1/batches',
      body: () =>
        JSON.stringify({ input_file_id: 'file-x', endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { big: 'm'.repeat(2.6 * MB) } }),
      auth: true,
    },
    { family: 'oaic', path: '/oaic/v1/videos', body: () => JSON.stringify({ model: 'sandbox-sora', prompt: 'p'.repeat(1.5 * MB) }), auth: true },
    {
      family: 'dsc',
      path: '/dsc/v1/services/aigc/multimodal-generation/generation',
      body: () =>
        JSON.stringify({
          model: 'sandbox-wan-image',
          input: { messages: [{ role: 'user', content: [{ image: `data:image/png;base64,${'A'.repeat(1.2 * MB)}` }] }] },
        }),
      auth: true,
    },
    {
      family: 'nativemedia',
      path: '/nativemedia/v1/images/generations',
      body: () => JSON.stringify({ model_name: 'sandbox-kling-image', prompt: 'x', image: 'B'.repeat(1.1 * MB) }),
      auth: true,
    },
    {
      family: 'music',
      path: '/music/generate',
      body: () => JSON.stringify({ customMode: false, prompt: 'q'.repeat(4 * MB), callBackUrl: 'https://h.example/x' }),
      auth: true,
    },
    {
      family: 'music',
      path: `/music/callbacks/${'t'.repeat(43)}`,
      body: () => JSON.stringify({ code: 200, data: { blob: 'c'.repeat(900 * 1024) } }),
      auth: false,
    },
  ];

  it.each(tooLarge)('answers an oversized body on $path with a 413 in the $family dialect naming the limit', async ({ family, path, body, auth }) => {
    const answer = await post(path, body(), auth ? bearer() : {});
    expect(answer.status).toBe(413);
    expectDialect(family, answer);
    expect(answer.text).toMatch(path.startsWith('/music/callbacks') ? /65536 bytes.*MUSIC_CALLBACK_MAX_BYTES/ : /\d+ bytes.*EDGE_BUS_BODY_MAX_BYTES/);
  });

  it.each([
    { why: 'a path segment too long (414)', path: `/genc/v1beta/models/${'x'.repeat(320)}:generateContent`, key: () => tenant.key, status: 414 },
    { why: 'a malformed percent-encoding (400)', path: '/genc/v1beta/models/%ff:generateContent', key: () => tenant.key, status: 400 },
    { why: 'an unknown key (401)', path: '/genc/v1beta/models/sandbox-gemini:generateContent', key: () => 'sk-unknown', status: 401 },
    { why: 'a callback body over its limit (413)', path: `/music/callbacks/${'u'.repeat(43)}`, key: () => tenant.key, status: 413 },
  ])(
    'lets a client refused for $why finish writing a 4 MB body slowly, then read the answer without a reset',
    async ({ path, key, status }) => {
      const url = new URL(baseUrl());
      const chunks = Array.from({ length: 4 }, () => Buffer.alloc(MB, 0x6f));
      const head = [
        `POST ${path} HTTP/1.1`,
        `host: ${url.host}`,
        `authorization: Bearer ${key()}`,
        'content-type: application/json',
        `content-length: ${4 * MB}`,
        '',
        '',
      ].join('\r\n');
      // Over three seconds in all: longer than the connection stays open once the client is silent.
      const answer = await slowRequest(head, chunks, 900);
      expect(answer).toEqual({ status, error: undefined });
    },
    30_000,
  );

  it('takes the unauthenticated callback only up to 64 KiB: a small one is read (and names no task), a larger one is not', async () => {
    const small = await post(`/music/callbacks/${'t'.repeat(43)}`, JSON.stringify({ code: 200, data: { blob: 'c'.repeat(60 * 1024) } }), {});
    expect(small.status).toBe(404);
    const large = await post(`/music/callbacks/${'t'.repeat(43)}`, JSON.stringify({ code: 200, data: { blob: 'c'.repeat(70 * 1024) } }), {});
    expect(large.status).toBe(413);
  });

  it('serves a body just under the bus limit on a bus route without a 5xx', async () => {
    const answer = await post(
      '/oaic/v1/batches',
      JSON.stringify({ input_file_id: 'file-x', endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { big: 'm'.repeat(900 * 1024) } }),
      bearer(),
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expectDialect('oaic', answer);
  });

  it.each([
    {
      family: 'msgc' as Family,
      path: '/msgc/v1/messages',
      headers: { 'msgc-version': '2023-06-01' } as Record<string, string>,
      body: (text: string) => ({ model: 'sandbox-claude', max_tokens: 8, messages: [{ role: 'user', content: text }] }),
    },
    {
      family: 'genc' as Family,
      path: '/genc/v1beta/models/sandbox-gemini:generateContent',
      headers: {} as Record<string, string>,
      body: (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] }),
    },
    {
      family: 'oaic' as Family,
      path: '/oaic/v1/chat/completions',
      headers: {} as Record<string, string>,
      body: (text: string) => ({ model: 'sandbox-gpt', max_tokens: 8, messages: [{ role: 'user', content: text }] }),
    },
  ])('carries a 2 MB $family body past the bus by claim check', async ({ family, path, headers, body }) => {
    const auth = family === 'msgc' ? { 'x-api-key': tenant.key } : bearer();
    const answer = await post(path, JSON.stringify(body('w '.repeat(MB))), { ...auth, ...headers });
    if (answer.status !== 200) expectDialect(family, answer);
    expect(answer.status).toBe(200);
  });

  describe('multipart forms', () => {
    const routes = ['/oaic/v1/files', '/oaic/v1/audio/transcriptions'];

    it('answers 1,000 hung forms with too many fields before the file at once, leaving no descriptor and no object behind', async () => {
      const storage = e2eEnv().GW_E2E_STORAGE_DIR;
      const objectsBefore = await filesUnder(storage);
      const descriptorsBefore = await openDescriptors(pid);
      const fields = Array.from({ length: 40 }, (_, i) => field(`f${i}`, `value ${i}`)).join('');
      const body = Buffer.from(`${field('purpose', 'batch')}${field('model', 'sandbox-whisper')}${fields}${fileHead('a.jsonl')}${'x'.repeat(1000)}`);
      const answers = await inWaves(1000, 25, (i) => hungRequest(formHead(routes[i % 2]!, tenant.key, 2 * MB), body, { timeoutMs: 10_000 }));
      const unanswered = answers.filter((a) => a.status !== 400);
      expect(unanswered.slice(0, 3)).toEqual([]);
      expectDialect('oaic', answers[0]!);
      expect(answers[0]!.text).toContain('MULTIPART_MAX_FIELDS');
      // Descriptors go as sockets close: give the last wave a moment.
      let descriptorsAfter = await openDescriptors(pid);
      for (let i = 0; i < 50 && descriptorsAfter > descriptorsBefore; i++) {
        await sleep(100);
        descriptorsAfter = await openDescriptors(pid);
      }
      expect(descriptorsAfter).toBeLessThanOrEqual(descriptorsBefore);
      expect(await filesUnder(storage)).toEqual(objectsBefore);
    }, 180_000);

    it('answers every upload of a form that ends without its closing boundary, fields after a 4 MB file', async () => {
      const objectsBefore = await filesUnder(e2eEnv().GW_E2E_STORAGE_DIR);
      const body = Buffer.concat([
        Buffer.from(`${field('purpose', 'batch')}${field('model', 'sandbox-whisper')}${fileHead('a.jsonl')}`),
        Buffer.alloc(4 * 1000 * 1000, 0x61),
        Buffer.from(`\r\n${Array.from({ length: 5 }, (_, i) => field(`after${i}`, 'v')).join('')}`),
      ]);
      const answers = await inWaves(16, 8, async (i) => {
        const response = await request(`${baseUrl()}${routes[i % 2]}`, {
          method: 'POST',
          headers: { ...bearer(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, connection: 'close' },
          body,
          headersTimeout: 15_000,
        });
        return { status: response.statusCode, text: await response.body.text() };
      });
      // Whether the parser reads the whole file before it sees the form end early is a race: served or
      // refused as unreadable are both answers (413 once the tenant's file quota is full); silence is not.
      for (const answer of answers) expect(answer.status === 400 ? /could not be read/.test(answer.text) : [200, 413].includes(answer.status)).toBe(true);
      const objectsAfter = await filesUnder(e2eEnv().GW_E2E_STORAGE_DIR);
      const answeredWithObject = answers.filter((a) => a.status === 200).length;
      expect(objectsAfter.length).toBeLessThanOrEqual(objectsBefore.length + answeredWithObject * 2);
    }, 120_000);

    it('removes the object and closes its descriptor when the client goes away in the middle of the file', async () => {
      const storage = e2eEnv().GW_E2E_STORAGE_DIR;
      const objectsBefore = await filesUnder(storage);
      const descriptorsBefore = await openDescriptors(pid);
      const body = Buffer.from(`${field('purpose', 'batch')}${field('model', 'sandbox-whisper')}${fileHead('a.wav')}${'y'.repeat(64 * 1024)}`);
      const answers = await inWaves(200, 25, (i) => hungRequest(formHead(routes[i % 2]!, tenant.key, 2 * MB), body, { abortAfterMs: 300 }));
      expect(answers.filter((a) => a.status !== -1)).toEqual([]);
      let objectsAfter = await filesUnder(storage);
      let descriptorsAfter = await openDescriptors(pid);
      for (let i = 0; i < 50 && (descriptorsAfter > descriptorsBefore || objectsAfter.length !== objectsBefore.length); i++) {
        await sleep(100);
        objectsAfter = await filesUnder(storage);
        descriptorsAfter = await openDescriptors(pid);
      }
      expect(descriptorsAfter).toBeLessThanOrEqual(descriptorsBefore);
      expect(objectsAfter).toEqual(objectsBefore);
    }, 120_000);

    it.each([
      { shape: 'many file parts', body: () => Array.from({ length: 80 }, (_, i) => fileHead(`p${i}.bin`) + 'z\r\n').join(''), names: /files limit/ },
      {
        shape: 'a field over its size',
        body: () => field('purpose', 'b'.repeat(64 * 1024)) + fileHead('a.jsonl') + 'x\r\n',
        names: /MULTIPART_FIELD_MAX_BYTES/,
      },
      {
        shape: 'a 100 KB part header',
        body: () => fileHead('a.jsonl', `x-padding: ${'h'.repeat(100 * 1024)}\r\n`) + 'x\r\n',
        names: /MULTIPART_PART_HEADER_MAX_BYTES/,
      },
      {
        shape: 'a part with 20 header lines',
        body: () => fileHead('a.jsonl', Array.from({ length: 20 }, (_, i) => `x-h${i}: v\r\n`).join('')) + 'x\r\n',
        names: /MULTIPART_MAX_PART_HEADERS/,
      },
      {
        shape: 'a head over its size after the file, never ended',
        body: () =>
          field('purpose', 'batch') +
          field('model', 'sandbox-whisper') +
          fileHead('a.jsonl') +
          'x'.repeat(1000) +
          `\r\n--${BOUNDARY}\r\ncontent-disposition: form-data; name="late"\r\nx-padding: ${'h'.repeat(20 * 1024)}`,
        names: /MULTIPART_PART_HEADER_MAX_BYTES/,
      },
      {
        shape: 'a part whose disposition comes after 20 header lines, sent whole',
        body: () =>
          `--${BOUNDARY}\r\n${Array.from({ length: 20 }, (_, i) => `x-h${i}: v\r\n`).join('')}content-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
          field('model', 'sandbox-whisper') +
          fileHead('a.jsonl') +
          `x\r\n--${BOUNDARY}--\r\n`,
        names: /MULTIPART_MAX_PART_HEADERS/,
        whole: true,
      },
      {
        shape: 'too many fields after the file',
        body: () => fileHead('a.jsonl') + 'x\r\n' + Array.from({ length: 40 }, (_, i) => field(`after${i}`, 'v')).join(''),
        names: /MULTIPART_MAX_FIELDS/,
      },
    ])('answers a form with $shape at once, naming what is wrong', async ({ body, names, whole }: { body: () => string; names: RegExp; whole?: boolean }) => {
      const objectsBefore = await filesUnder(e2eEnv().GW_E2E_STORAGE_DIR);
      const descriptorsBefore = await openDescriptors(pid);
      for (const path of routes) {
        const bytes = Buffer.from(body());
        const answer = await hungRequest(formHead(path, tenant.key, whole ? bytes.length : 2 * MB), bytes, { timeoutMs: 10_000 });
        expect({ path, status: answer.status }).toEqual({ path, status: 400 });
        expectDialect('oaic', answer);
        expect(answer.text).toMatch(names);
      }
      await sleep(200);
      expect(await filesUnder(e2eEnv().GW_E2E_STORAGE_DIR)).toEqual(objectsBefore);
      let descriptorsAfter = await openDescriptors(pid);
      for (let i = 0; i < 50 && descriptorsAfter > descriptorsBefore; i++) {
        await sleep(100);
        descriptorsAfter = await openDescriptors(pid);
      }
      expect(descriptorsAfter).toBeLessThanOrEqual(descriptorsBefore);
    });
  });
});

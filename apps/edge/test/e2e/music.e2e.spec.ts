/**
 * The music family end to end against the sandbox's Suno-style upstream: all 22 routes (create, upstream
 * callbacks, query), signed tenant webhooks verified with the independent standardwebhooks library through a
 * receiver outage, duplicate/out-of-order/missing upstream callbacks, results served from gateway links.
 */
import { Webhook } from 'standardwebhooks';
import { bearer, createTenantWithKey, e2eEnv, http, type HttpResult, type TenantWithKey } from './support/gateway';
import { runCli } from './support/cli-runner';
import { eventually, WebhookReceiver, type ReceivedHook } from './support/webhook-receiver';

interface TaskView {
  taskId: string;
  status: string;
  type: string;
  response: {
    sunoData: Array<{ id: string; audioUrl: string | null; imageUrl: string | null }>;
    files: Record<string, string>;
    details: Record<string, unknown>;
  };
}

const base = () => e2eEnv().GW_E2E_BASE_URL;
const post = (key: string, route: string, body: unknown) => http('POST', `${base()}/music/${route}`, { headers: bearer(key), json: body });
const query = (key: string, kind: string, taskId: string) =>
  http('GET', `${base()}/music/query/${kind}?taskId=${encodeURIComponent(taskId)}`, { headers: bearer(key) });

function taskIdOf(result: HttpResult): string {
  expect(result.status).toBe(200);
  expect(result.body).toEqual({ code: 200, msg: 'success', data: { taskId: expect.any(String) } });
  return (result.body as { data: { taskId: string } }).data.taskId;
}

async function settled(key: string, kind: string, taskId: string, status = 'SUCCESS'): Promise<TaskView> {
  return eventually(
    async () => {
      const answer = await query(key, kind, taskId);
      const view = (answer.body as { data: TaskView }).data;
      return view?.status === status ? view : null;
    },
    15_000,
    `task ${taskId} ${status}`,
  );
}

/** Each distinct webhook-id once, in the order first received, each verified with the tenant's secret. */
function deduped(hits: ReceivedHook[], secret: string): Array<{ id: string; callbackType: string; taskId: string }> {
  const verifier = new Webhook(secret);
  const seen = new Map<string, { id: string; callbackType: string; taskId: string }>();
  for (const hit of hits) {
    const payload = verifier.verify(hit.body, hit.headers) as { code: number; data: { callbackType: string; taskId: string } };
    if (!seen.has(hit.headers['webhook-id']!)) seen.set(hit.headers['webhook-id']!, { id: hit.headers['webhook-id']!, ...payload.data });
  }
  return [...seen.values()];
}

const song = (model: string, callBackUrl: string) => ({ customMode: false, instrumental: false, model, callBackUrl, prompt: 'a calm song about the sea' });

describe('music family', () => {
  const receiver = new WebhookReceiver();
  let tenant: TenantWithKey;
  let secret: string;

  beforeAll(async () => {
    await receiver.start();
    tenant = await createTenantWithKey({ label: 'music' });
    const rotated = await runCli(['webhooks', 'secret', 'rotate', '--tenant', tenant.slug, '--json']);
    expect(rotated.code).toBe(0);
    secret = (JSON.parse(rotated.stdout) as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
  });

  afterAll(() => receiver.stop());

  it('generates a song: text, first and complete webhooks signed and in order, results on gateway links', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music', receiver.url('plain'))));
    const view = await settled(tenant.key, 'task', taskId);
    expect(view.type).toBe('generate');
    expect(view.response.sunoData).toHaveLength(2);
    const audio = await http('GET', view.response.sunoData[0]!.audioUrl!);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect(view.response.sunoData[0]!.audioUrl!.startsWith(`${base()}/files/signed/`)).toBe(true);
    const hooks = await eventually(async () => (receiver.at('plain').length >= 3 ? receiver.at('plain') : null));
    expect(deduped(hooks, secret).map((h) => [h.callbackType, h.taskId])).toEqual([
      ['text', taskId],
      ['first', taskId],
      ['complete', taskId],
    ]);
  });

  it('keeps delivering through a receiver down for its first 3 attempts: each stage once after dedupe, in order', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music', receiver.url('flaky', 3))));
    await settled(tenant.key, 'task', taskId);
    const hooks = await eventually(async () => (deduped(receiver.at('flaky'), secret).length === 3 ? receiver.at('flaky') : null));
    expect(hooks.slice(0, 3).map((h) => h.status)).toEqual([503, 503, 503]);
    expect(new Set(hooks.slice(0, 4).map((h) => h.headers['webhook-id'])).size).toBe(1);
    expect(deduped(hooks, secret).map((h) => h.callbackType)).toEqual(['text', 'first', 'complete']);
    const listed = await runCli(['webhooks', 'deliveries', '--task', taskId, '--json']);
    const deliveries = (
      JSON.parse(listed.stdout) as { data: Array<{ eventType: string; status: string; attempts: number; history: Array<{ outcome: string }> }> }
    ).data;
    expect(deliveries.map((d) => [d.eventType, d.status])).toEqual([
      ['text', 'delivered'],
      ['first', 'delivered'],
      ['complete', 'delivered'],
    ]);
    expect(deliveries[0]!.history.map((a) => a.outcome)).toEqual(['failed', 'failed', 'failed', 'delivered']);
  });

  it('a duplicated upstream callback causes no extra delivery', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music-duplicate', receiver.url('dup'))));
    await settled(tenant.key, 'task', taskId);
    await eventually(async () => receiver.at('dup').length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at('dup')).toHaveLength(3);
  });

  it('callbacks in reverse order never move the task backwards, and the webhooks still come in order', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music-reorder', receiver.url('reorder'))));
    await settled(tenant.key, 'task', taskId);
    const hooks = await eventually(async () => (receiver.at('reorder').length >= 3 ? receiver.at('reorder') : null));
    expect(deduped(hooks, secret).map((h) => h.callbackType)).toEqual(['text', 'first', 'complete']);
    expect((await settled(tenant.key, 'task', taskId)).status).toBe('SUCCESS');
  });

  it('an upstream that never calls back is reached by polling, and the tenant is still called back', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music-silent', receiver.url('silent'))));
    const view = await settled(tenant.key, 'task', taskId);
    expect(view.response.sunoData[0]!.audioUrl).toMatch(/\/files\/signed\//);
    const hooks = await eventually(async () => (receiver.at('silent').length >= 3 ? receiver.at('silent') : null));
    expect(deduped(hooks, secret).map((h) => h.callbackType)).toEqual(['text', 'first', 'complete']);
  });

  it('a failed generation ends as GENERATE_AUDIO_FAILED with no callback owed', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music-failing', receiver.url('failing'))));
    const view = await settled(tenant.key, 'task', taskId, 'GENERATE_AUDIO_FAILED');
    expect(view.response.sunoData).toEqual([]);
    expect(receiver.at('failing')).toHaveLength(0);
  });

  it('redelivers a delivered webhook under the same webhook-id', async () => {
    const taskId = taskIdOf(await post(tenant.key, 'generate-lyrics', { prompt: 'the sea', callBackUrl: receiver.url('redeliver') }));
    await settled(tenant.key, 'lyrics', taskId);
    const first = await eventually(async () => receiver.at('redeliver')[0]);
    const redelivered = await runCli(['webhooks', 'redeliver', first.headers['webhook-id']!]);
    expect(redelivered.code).toBe(0);
    const again = await eventually(async () => receiver.at('redeliver')[1]);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
  });

  describe('every route against the sandbox', () => {
    let source: TaskView;

    beforeAll(async () => {
      const taskId = taskIdOf(
        await post(tenant.key, 'generate', { ...song('sandbox-music', receiver.url('source')), customMode: true, style: 'ambient', title: 'Tide' }),
      );
      source = await settled(tenant.key, 'task', taskId);
    });

    const routes: Array<[string, string, (s: TaskView) => Record<string, unknown>, (v: TaskView) => void]> = [
      [
        'extend',
        'task',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id, continueAt: 1, prompt: 'more' }),
        (v) => expect(v.response.sunoData).toHaveLength(2),
      ],
      [
        'upload-cover',
        'task',
        () => ({ uploadUrl: 'https://example.com/in.mp3', style: 'jazz', title: 'Cover', model: 'sandbox-music' }),
        (v) => expect(v.response.sunoData[0]!.audioUrl).toBeTruthy(),
      ],
      [
        'upload-extend',
        'task',
        () => ({ uploadUrl: 'https://example.com/in.mp3', continueAt: 2, model: 'sandbox-music' }),
        (v) => expect(v.response.sunoData).toHaveLength(2),
      ],
      [
        'add-vocals',
        'task',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id, prompt: 'sing along' }),
        (v) => expect(v.response.sunoData).toHaveLength(2),
      ],
      [
        'add-instrumental',
        'task',
        () => ({ uploadUrl: 'https://example.com/vocals.mp3', style: 'piano', model: 'sandbox-music' }),
        (v) => expect(v.response.sunoData).toHaveLength(2),
      ],
      [
        'replace-section',
        'task',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id, prompt: 'a bridge', infillStartS: 0.5, infillEndS: 1.5 }),
        (v) => expect(v.response.sunoData).toHaveLength(2),
      ],
      [
        'generate-persona',
        'task',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id, name: 'Voice', description: 'warm' }),
        (v) => expect(v.response.details.personaId).toEqual(expect.any(String)),
      ],
      [
        'generate-lyrics',
        'lyrics',
        () => ({ prompt: 'the tide' }),
        (v) => expect(v.response.details.items).toEqual([expect.objectContaining({ text: expect.any(String) })]),
      ],
      [
        'timestamped-lyrics',
        'lyrics',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id }),
        (v) => expect(v.response.details.alignedWords).toEqual(expect.any(Array)),
      ],
      ['style-generate', 'lyrics', () => ({ content: 'lofi' }), (v) => expect(v.response.details.style).toMatch(/lofi/)],
      ['generate-cover', 'cover', (s) => ({ taskId: s.taskId }), (v) => expect(Object.keys(v.response.files)).toEqual(['image_1', 'image_2'])],
      [
        'vocal-removal',
        'vocal-removal',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id }),
        (v) => expect(Object.keys(v.response.files).sort()).toEqual(['instrumental', 'vocal']),
      ],
      [
        'split-stem',
        'vocal-removal',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id }),
        (v) => expect(v.response.files.vocal).toMatch(/files\/signed/),
      ],
      [
        'wav-generate',
        'wav',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id }),
        (v) => expect(v.response.files.audio_wav).toMatch(/files\/signed/),
      ],
      [
        'mp4-generate',
        'mp4',
        (s) => ({ taskId: s.taskId, audioId: s.response.sunoData[0]!.id }),
        (v) => expect(v.response.files.video).toMatch(/files\/signed/),
      ],
    ];

    it.each(routes)('POST /music/%s, then GET /music/query/%s', async (route, kind, body, check) => {
      const taskId = taskIdOf(await post(tenant.key, route, { ...body(source), callBackUrl: receiver.url(`route-${route}`) }));
      const view = await settled(tenant.key, kind, taskId);
      expect(view.type).toBe(route);
      check(view);
      // A task is read on the query route of its kind only.
      const other = kind === 'wav' ? 'mp4' : 'wav';
      expect((await query(tenant.key, other, taskId)).status).toBe(404);
      await eventually(async () => deduped(receiver.at(`route-${route}`), secret).some((h) => h.callbackType === 'complete'));
    });

    it('WAV and cover results are real files', async () => {
      const taskId = taskIdOf(
        await post(tenant.key, 'wav-generate', { taskId: source.taskId, audioId: source.response.sunoData[0]!.id, callBackUrl: receiver.url('wavfile') }),
      );
      const wav = await http('GET', (await settled(tenant.key, 'wav', taskId)).response.files.audio_wav!);
      expect(wav.status).toBe(200);
      expect(wav.headers['content-type']).toBe('audio/wav');
      expect(wav.text.startsWith('RIFF')).toBe(true);
    });

    it('split-stem and replace-section answer "not supported by this account" on an account without them', async () => {
      const limitedTask = taskIdOf(await post(tenant.key, 'generate', song('sandbox-music-limited', receiver.url('limited'))));
      const limited = await settled(tenant.key, 'task', limitedTask);
      const audioId = limited.response.sunoData[0]!.id;
      for (const [route, extra] of [
        ['split-stem', {}],
        ['replace-section', { prompt: 'x', infillStartS: 0, infillEndS: 1 }],
      ] as const) {
        const answer = await post(tenant.key, route, { taskId: limitedTask, audioId, callBackUrl: receiver.url('limited-x'), ...extra });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ code: 400, msg: expect.stringMatching(/not supported by this account/), data: null });
      }
    });
  });
});

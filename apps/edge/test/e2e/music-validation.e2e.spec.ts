/**
 * Every validation rule and error code of the music family (spec 7), each answered as `{code, msg, data}`
 * with the HTTP status equal to the code and the message naming the field or header at fault.
 */
import { adminClient, bearer, createTenantWithKey, e2eEnv, http, type HttpResult, type TenantWithKey } from './support/gateway';

const base = () => e2eEnv().GW_E2E_BASE_URL;
const post = (key: string, route: string, body: unknown) => http('POST', `${base()}/music/${route}`, { headers: bearer(key), json: body });
const HOOK = 'https://hooks.example.com/music';
const simple = { customMode: false, instrumental: false, model: 'sandbox-music', callBackUrl: HOOK, prompt: 'a song' };

function expectMusicError(result: HttpResult, code: number, field: RegExp | string): void {
  expect(result.status).toBe(code);
  expect(result.body).toEqual({ code, msg: expect.any(String), data: null });
  expect((result.body as { msg: string }).msg).toMatch(field);
}

describe('music validation and error codes', () => {
  let tenant: TenantWithKey;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'musicval' });
  });

  const without = (field: string) => Object.fromEntries(Object.entries(simple).filter(([k]) => k !== field));

  it.each(['customMode', 'instrumental', 'model', 'callBackUrl'])('generate requires %s (400)', async (field) => {
    expectMusicError(await post(tenant.key, 'generate', without(field)), 400, field);
  });

  it('custom mode needs style and title; simple mode needs prompt (400)', async () => {
    expectMusicError(await post(tenant.key, 'generate', { ...simple, customMode: true, title: 'T' }), 400, 'style');
    expectMusicError(await post(tenant.key, 'generate', { ...simple, customMode: true, style: 'pop' }), 400, 'title');
    expectMusicError(await post(tenant.key, 'generate', without('prompt')), 400, 'prompt');
    expectMusicError(await post(tenant.key, 'generate', { ...simple, instrumental: 'yes' }), 400, 'instrumental');
  });

  it.each([
    ['extend', { audioId: 'a', continueAt: 1 }, 'taskId'],
    ['extend', { taskId: 't', continueAt: 1 }, 'audioId'],
    ['extend', { taskId: 't', audioId: 'a' }, 'continueAt'],
    ['upload-cover', { style: 's', title: 't' }, 'uploadUrl'],
    ['upload-cover', { uploadUrl: 'https://10.0.0.8/a.mp3', style: 's', title: 't' }, 'uploadUrl'],
    ['upload-extend', { uploadUrl: 'https://example.com/a.mp3' }, 'continueAt'],
    ['add-vocals', { prompt: 'p' }, 'uploadUrl'],
    ['add-vocals', { taskId: 't', prompt: 'p' }, 'audioId'],
    ['add-instrumental', { uploadUrl: 'https://example.com/a.mp3' }, 'style'],
    ['vocal-removal', { taskId: 't' }, 'audioId'],
    ['split-stem', { audioId: 'a' }, 'taskId'],
    ['replace-section', { taskId: 't', audioId: 'a', prompt: 'p', infillStartS: 5, infillEndS: 2 }, 'infillEndS'],
    ['wav-generate', { taskId: 't' }, 'audioId'],
    ['mp4-generate', { audioId: 'a' }, 'taskId'],
    ['generate-lyrics', {}, 'prompt'],
    ['timestamped-lyrics', { taskId: 't' }, 'audioId'],
    ['style-generate', {}, 'content'],
    ['generate-cover', {}, 'taskId'],
    ['generate-persona', { taskId: 't', audioId: 'a', description: 'd' }, 'name'],
  ])('%s without a valid %j is a 400 naming %s', async (route, body, field) => {
    expectMusicError(await post(tenant.key, route, { callBackUrl: HOOK, ...body }), 400, field);
  });

  it.each([
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest',
    'https://192.168.1.20/hook',
    'https://user:secret@hooks.example.com/hook',
    'ftp://example.com/x',
  ])('refuses the callBackUrl %s at creation (400)', async (callBackUrl) => {
    expectMusicError(await post(tenant.key, 'generate', { ...simple, callBackUrl }), 400, 'callBackUrl');
  });

  it('a source task that is not the tenant’s own is not found (404)', async () => {
    expectMusicError(await post(tenant.key, 'wav-generate', { callBackUrl: HOOK, taskId: 'f'.repeat(32), audioId: 'a' }), 404, 'taskId');
  });

  it('a model that is not a visible music model is a 400 naming model', async () => {
    expectMusicError(await post(tenant.key, 'generate', { ...simple, model: 'no-such-model' }), 400, 'model');
    expectMusicError(await post(tenant.key, 'generate', { ...simple, model: 'sandbox-gpt' }), 400, 'model');
  });

  it('text over the limits is a 413 naming the field', async () => {
    expectMusicError(await post(tenant.key, 'generate', { ...simple, prompt: 'x'.repeat(501) }), 413, 'prompt');
    const custom = { ...simple, customMode: true, style: 'pop', title: 'T' };
    expectMusicError(await post(tenant.key, 'generate', { ...custom, prompt: 'x'.repeat(5001) }), 413, 'prompt');
    expectMusicError(await post(tenant.key, 'generate', { ...custom, style: 'x'.repeat(1001) }), 413, 'style');
    expectMusicError(await post(tenant.key, 'generate', { ...custom, title: 'x'.repeat(101) }), 413, 'title');
    expectMusicError(await post(tenant.key, 'generate-lyrics', { callBackUrl: HOOK, prompt: 'x'.repeat(201) }), 413, 'prompt');
  });

  it('the query routes require taskId (400) and answer an unknown one with 404', async () => {
    expectMusicError(await http('GET', `${base()}/music/query/task`, { headers: bearer(tenant.key) }), 400, 'taskId');
    expectMusicError(await http('GET', `${base()}/music/query/task?taskId=${'0'.repeat(32)}`, { headers: bearer(tenant.key) }), 404, 'taskId');
  });

  it('a bad key is a 401 naming the Authorization header', async () => {
    expectMusicError(await post('sk-not-a-key', 'generate', simple), 401, /authorization|key/i);
    expectMusicError(await http('POST', `${base()}/music/generate`, { json: simple }), 401, /authorization|key/i);
  });

  it('an exhausted balance is a 429', async () => {
    const broke = await createTenantWithKey({ label: 'musicbroke', balance: null });
    expectMusicError(await post(broke.key, 'generate', simple), 429, /.+/);
  });

  it('too many requests a minute is a 430, too many tokens a minute a 405', async () => {
    const limited = await createTenantWithKey({ label: 'musicrpm' });
    await adminClient().configureBilling({ tenant: limited.slug, limits: { rpm: 1 } });
    await post(limited.key, 'generate-lyrics', { callBackUrl: HOOK, prompt: 'one' });
    expectMusicError(await post(limited.key, 'generate-lyrics', { callBackUrl: HOOK, prompt: 'two' }), 430, /.+/);
    const wordy = await createTenantWithKey({ label: 'musictpm' });
    await adminClient().configureBilling({ tenant: wordy.slug, limits: { tpm: 1 } });
    const wordyBody = { ...simple, prompt: 'a long description of a song about the sea' };
    await post(wordy.key, 'generate', wordyBody);
    expectMusicError(await post(wordy.key, 'generate', wordyBody), 405, /.+/);
  });

  it('an upstream that refuses to create the task is a 500 and the task is not billed', async () => {
    const before = await adminClient().balance(tenant.slug);
    expectMusicError(await post(tenant.key, 'generate', { ...simple, model: 'sandbox-music-refused' }), 500, /create task failed/i);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await adminClient().balance(tenant.slug)).balance).toBe(before.balance);
  });
  it('a transform whose source task’s upstream channel is gone answers 455 (maintenance)', async () => {
    const model = `music-maint-${tenant.slug}`;
    const catalog = (upstreamModel: string) => ({
      models: [
        {
          id: model,
          displayName: 'Maintenance test',
          capability: 'music',
          public: false,
          provider: 'sandbox-music',
          upstreamModel,
          prices: { perTask: '0.01' },
        },
      ],
      tenants: [{ slug: tenant.slug, billing: 'payg', models: [model] }],
    });
    await adminClient().apply(catalog('V4_5@stage=30'));
    const created = await post(tenant.key, 'generate', { ...simple, model });
    expect(created.status).toBe(200);
    const taskId = (created.body as { data: { taskId: string } }).data.taskId;
    let audioId = '';
    for (let i = 0; i < 100 && !audioId; i++) {
      const view = await http('GET', `${base()}/music/query/task?taskId=${taskId}`, { headers: bearer(tenant.key) });
      const data = (view.body as { data: { status: string; response: { sunoData: Array<{ id: string }> } } }).data;
      if (data.status === 'SUCCESS') audioId = data.response.sunoData[0]!.id;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Moving the model to another upstream model replaces its channel: the task's own channel is gone.
    await adminClient().apply(catalog('V4_5@stage=31'));
    let answer: HttpResult | null = null;
    for (let i = 0; i < 50; i++) {
      answer = await post(tenant.key, 'wav-generate', { callBackUrl: HOOK, taskId, audioId });
      if (answer.status !== 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expectMusicError(answer!, 455, 'taskId');
  });
});

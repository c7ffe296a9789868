/**
 * Media tasks through the running gateway: oaic videos with the official SDK, every dsc and nativemedia
 * route by raw HTTP from create through polling to the stored result, the nativemedia rules, and task
 * ids that another tenant, or another query route, cannot read.
 */
import { createTenantWithKey, openaiClient, type TenantWithKey } from './support/gateway';
import { dscEnded, fetchLink, get, isMp4, isPng, nativeEnded, pollTask, post, PUBLIC_IMAGE, PUBLIC_IMAGE_2 } from './support/media-fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('media tasks', () => {
  let owner: TenantWithKey;
  let other: TenantWithKey;

  beforeAll(async () => {
    [owner, other] = await Promise.all([createTenantWithKey({ label: 'media' }), createTenantWithKey({ label: 'media-other' })]);
  });

  it('oaic videos with the openai SDK: create, retrieve until completed, download the MP4', async () => {
    const openai = openaiClient(owner.key);
    const created = await openai.videos.create({ model: 'sandbox-sora', prompt: 'a lighthouse at dusk', seconds: '4' });
    expect(created).toMatchObject({ object: 'video', status: 'processing', model: 'sandbox-sora', error: null });
    expect(created.id).toMatch(/^video_[0-9a-f]{32}$/);
    const statuses: string[] = [];
    let video = created;
    while (!['completed', 'failed', 'cancelled'].includes(video.status)) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      video = await openai.videos.retrieve(created.id);
      statuses.push(video.status);
    }
    expect(video.status).toBe('completed');
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set(statuses.length > 1 ? ['processing'] : []));
    expect((video as Json).download_url).toBe(`/v1/videos/${created.id}/content`);
    const content = await openai.videos.downloadContent(created.id);
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(isMp4(bytes)).toBe(true);
  });

  it('oaic videos adapt native std/pro and omni models to the native routes', async () => {
    for (const model of ['sandbox-kling-pro', 'sandbox-kling-omni']) {
      const created = await post(owner.key, '/oaic/v1/videos', { model, prompt: 'waves <<<image_1>>>', image: PUBLIC_IMAGE, duration: 5 });
      expect(created.status).toBe(200);
      const id = (created.body as Json).id;
      const seen = await pollTask(owner.key, `/oaic/v1/videos/${id}`, (b) => b.status !== 'processing');
      expect((seen.at(-1)!.body as Json).status).toBe('completed');
    }
  });

  it('dsc video: PENDING, polled to SUCCEEDED, video_url a signed gateway link that needs no key; dsc image answers at once', async () => {
    const created = await post(owner.key, '/dsc/v1/services/aigc/video-generation/video-synthesis', {
      model: 'sandbox-wan-video',
      input: { prompt: 'a red kite over hills', img_url: PUBLIC_IMAGE },
      parameters: { resolution: '720P', duration: 5 },
    });
    expect(created.status).toBe(200);
    const output = (created.body as Json).output;
    expect(output.task_status).toBe('PENDING');
    const seen = await pollTask(owner.key, `/dsc/v1/tasks/${output.task_id}`, dscEnded);
    const done = seen.at(-1)!.body as Json;
    expect(done.output.task_status).toBe('SUCCEEDED');
    expect(done.output.end_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(done.usage).toMatchObject({ duration: 5, video_count: 1 });
    const file = await fetchLink(done.output.video_url);
    expect(file.status).toBe(200);
    expect(isMp4(file.bytes)).toBe(true);

    const image = await post(owner.key, '/dsc/v1/services/aigc/multimodal-generation/generation', {
      model: 'sandbox-wan-image',
      input: { messages: [{ role: 'user', content: [{ text: 'a blue square' }] }] },
      parameters: { size: '1024*1024' },
    });
    expect(image.status).toBe(200);
    const content = (image.body as Json).output.choices[0].message.content;
    expect(content).toHaveLength(1);
    const png = await fetchLink(content[0].image);
    expect(png.type).toBe('image/png');
    expect(isPng(png.bytes)).toBe(true);
  });

  it('nativemedia: every create route through its query route to the stored result', async () => {
    const cases: Array<{ path: string; body: Json; kind: 'videos' | 'images' }> = [
      {
        path: '/nativemedia/v1/videos/text2video',
        kind: 'videos',
        body: { model_name: 'sandbox-kling', model: 'sandbox-kling', prompt: 'a fox', mode: 'std', duration: '5' },
      },
      {
        path: '/nativemedia/v1/videos/image2video',
        kind: 'videos',
        body: { model_name: 'sandbox-kling', prompt: 'the fox runs', mode: 'pro', image: PUBLIC_IMAGE },
      },
      {
        path: '/nativemedia/v1/videos/omni-video',
        kind: 'videos',
        body: {
          model_name: 'sandbox-kling-omni',
          prompt: 'from <<<image_1>>> to <<<image_2>>>',
          sound: 'off',
          image_list: [
            { image_url: PUBLIC_IMAGE, type: 'first_frame' },
            { image_url: PUBLIC_IMAGE_2, type: 'end_frame' },
          ],
        },
      },
      { path: '/nativemedia/v1/images/generations', kind: 'images', body: { model_name: 'sandbox-kling-image', prompt: 'a lantern', n: 2 } },
      {
        path: '/nativemedia/v1/images/omni-image',
        kind: 'images',
        body: { model_name: 'sandbox-kling-omni-image', prompt: 'like <<<image_1>>>', image_list: [{ image_url: PUBLIC_IMAGE }] },
      },
    ];
    await Promise.all(
      cases.map(async ({ path, body, kind }) => {
        const created = await post(owner.key, path, body);
        expect(created.status).toBe(200);
        const data = (created.body as Json).data;
        expect(data.task_status).toBe('submitted');
        const seen = await pollTask(owner.key, `${path}/${data.task_id}`, nativeEnded);
        const done = (seen.at(-1)!.body as Json).data;
        expect(done.task_status).toBe('succeed');
        const urls: string[] = (kind === 'videos' ? done.task_result.videos : done.task_result.images).map((item: Json) => item.url);
        expect(urls).toHaveLength(kind === 'images' && body.n === 2 ? 2 : 1);
        const file = await fetchLink(urls[0]!);
        expect(file.status).toBe(200);
        expect(kind === 'videos' ? isMp4(file.bytes) : isPng(file.bytes)).toBe(true);
      }),
    );
  });

  it.each([
    ['1', '/nativemedia/v1/videos/text2video', { model_name: 'sandbox-kling-std', prompt: 'p' }, 'model_name'],
    ['2', '/nativemedia/v1/videos/text2video', { model_name: 'sandbox-kling-omni', prompt: 'p' }, 'model_name'],
    ['3', '/nativemedia/v1/videos/image2video', { model_name: 'sandbox-kling', mode: 'std', prompt: 'p', image_url: PUBLIC_IMAGE }, 'image_url'],
    ['4', '/nativemedia/v1/videos/omni-video', { model_name: 'sandbox-kling-omni', prompt: 'p', image_url: PUBLIC_IMAGE }, 'image_url'],
    [
      '4',
      '/nativemedia/v1/videos/omni-video',
      { model_name: 'sandbox-kling-omni', prompt: 'like <<<image_2>>>', image_list: [{ image_url: PUBLIC_IMAGE }] },
      'prompt',
    ],
    [
      '5',
      '/nativemedia/v1/videos/omni-video',
      { model_name: 'sandbox-kling-omni', prompt: 'p', image_list: [{ image_url: PUBLIC_IMAGE, type: 'end_frame' }] },
      'image_list',
    ],
    ['5', '/nativemedia/v1/videos/image2video', { model_name: 'sandbox-kling', prompt: 'p', image_tail: PUBLIC_IMAGE }, 'image_tail'],
  ])('nativemedia rule %s violation is a 400 naming the rule (%s)', async (rule, path, body, param) => {
    const refused = await post(owner.key, path, body);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 1201 });
    expect((refused.body as Json).message).toContain(`Rule ${rule}:`);
    expect((refused.body as Json).message).toContain(param);
  });

  it('rule 6 and isolation: a task is read only on the query route that matches its creation, and only by its tenant', async () => {
    const created = await post(owner.key, '/nativemedia/v1/videos/text2video', { model_name: 'sandbox-kling', mode: 'std', prompt: 'owned' });
    const id = (created.body as Json).data.task_id as string;
    expect((await get(owner.key, `/nativemedia/v1/videos/text2video/${id}`)).status).toBe(200);
    for (const wrong of [
      '/nativemedia/v1/videos/image2video',
      '/nativemedia/v1/videos/omni-video',
      '/nativemedia/v1/images/generations',
      '/dsc/v1/tasks',
      '/oaic/v1/videos',
    ]) {
      expect((await get(owner.key, `${wrong}/${id}`)).status).toBe(404);
    }
    expect((await get(owner.key, `/nativemedia/v1/videos/generations/${id}`)).status).toBe(404);

    const video = await post(owner.key, '/oaic/v1/videos', { model: 'sandbox-sora', prompt: 'owned too' });
    const dsc = await post(owner.key, '/dsc/v1/services/aigc/video-generation/video-synthesis', {
      model: 'sandbox-wan-video',
      input: { prompt: 'owned three' },
    });
    const foreign: Array<[string, HttpStatusCheck]> = [
      [`/nativemedia/v1/videos/text2video/${id}`, (b) => expect(b).toMatchObject({ code: 1203 })],
      [`/oaic/v1/videos/${(video.body as Json).id}`, (b) => expect(b).toMatchObject({ error: { code: 'not_found' } })],
      [`/oaic/v1/videos/${(video.body as Json).id}/content`, (b) => expect(b).toMatchObject({ error: { code: 'not_found' } })],
      [`/dsc/v1/tasks/${(dsc.body as Json).output.task_id}`, (b) => expect(b).toMatchObject({ code: 'NotFound' })],
    ];
    for (const [path, check] of foreign) {
      const answer = await get(other.key, path);
      expect(answer.status).toBe(404);
      check(answer.body);
    }
  });
});

type HttpStatusCheck = (body: unknown) => void;

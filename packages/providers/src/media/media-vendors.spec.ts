import type { ChannelTarget } from '../provider.types';
import { mediaVendorOf } from './media-vendors';

const channel = (protocol: ChannelTarget['protocol'], apiKey = 'ak:sk'): ChannelTarget => ({
  id: 'c1',
  providerId: 'p',
  protocol,
  baseUrl: 'https://upstream.example.com/api/v1/',
  apiKey,
  upstreamModel: 'model-x',
  priority: 0,
  weight: 1,
});

describe('media vendor transforms (no network)', () => {
  it('Kling-style: the base name with mode on std/pro routes, a minted JWT, refusals by vendor code', () => {
    const kling = mediaVendorOf('kling')!;
    const request = kling.submitRequest(channel('kling'), {
      output: 'video',
      nativeKind: 'image2video',
      prompt: 'p',
      mode: 'pro',
      seconds: 10,
      image: 'https://i.example.com/a.png',
    });
    expect(request.url).toBe('https://upstream.example.com/api/v1/v1/videos/image2video');
    expect(JSON.parse(request.body as string)).toEqual({
      model_name: 'model-x',
      prompt: 'p',
      mode: 'pro',
      duration: '10',
      image: 'https://i.example.com/a.png',
    });
    expect(request.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(() => kling.parseSubmit({ code: 1201, message: 'bad model_name' }, channel('kling'))).toThrow('bad model_name');
    expect(() => kling.parseSubmit({ code: 1302, message: 'too fast' }, channel('kling'))).toThrow(expect.objectContaining({ code: 'rate_limited' }));
    expect(
      kling.parsePoll(
        { code: 0, data: { task_id: 't', task_status: 'succeed', task_result: { videos: [{ url: 'https://r/1.mp4', duration: '5' }] } } },
        channel('kling'),
        't',
      ),
    ).toEqual({
      state: 'succeeded',
      assets: [{ url: 'https://r/1.mp4', kind: 'video' }],
      usage: { seconds: 5 },
    });
  });

  it('Kling-style: the callback URL as callback_url, only when given', () => {
    const kling = mediaVendorOf('kling')!;
    const job = { output: 'video', nativeKind: 'text2video', prompt: 'p' } as const;
    expect(kling.takesCallbackUrl).toBe(true);
    expect(JSON.parse(kling.submitRequest(channel('kling'), job, 'https://gw.example.com/media/callbacks/t.x').body as string)).toMatchObject({
      callback_url: 'https://gw.example.com/media/callbacks/t.x',
    });
    expect(JSON.parse(kling.submitRequest(channel('kling'), job).body as string)).not.toHaveProperty('callback_url');
    expect(mediaVendorOf('dashscope')!.takesCallbackUrl).toBeUndefined();
  });

  it('DashScope: async header on video, task states, a synchronous image answer as done', () => {
    const dashscope = mediaVendorOf('dashscope')!;
    const video = dashscope.submitRequest(channel('dashscope', 'sk'), { output: 'video', nativeKind: 'text2video', prompt: 'p', seconds: 5 });
    expect(video.headers['x-dashscope-async']).toBe('enable');
    expect(dashscope.parseSubmit({ request_id: 'r', output: { task_id: 't1', task_status: 'PENDING' } }, channel('dashscope'))).toEqual({
      kind: 'task',
      upstreamTaskId: 't1',
    });
    expect(dashscope.parsePoll({ output: { task_id: 't1', task_status: 'RUNNING' } }, channel('dashscope'), 't1')).toEqual({
      state: 'running',
      progress: null,
    });
    expect(dashscope.parsePoll({ output: { task_id: 't1', task_status: 'FAILED', code: 'X', message: 'no' } }, channel('dashscope'), 't1')).toEqual({
      state: 'failed',
      code: 'X',
      message: 'no',
    });
    const image = dashscope.parseSubmit({ output: { choices: [{ message: { content: [{ image: 'https://r/1.png' }] } }] } }, channel('dashscope'));
    expect(image).toEqual({ kind: 'done', assets: [{ url: 'https://r/1.png', kind: 'image' }], usage: { images: 1 } });
  });

  it('OpenAI videos: seconds as a string, the content route with the channel key once completed', () => {
    const openai = mediaVendorOf('openai')!;
    const request = openai.submitRequest(channel('openai', 'sk-up'), { output: 'video', nativeKind: 'text2video', prompt: 'p', seconds: 8, size: '1280x720' });
    expect(JSON.parse(request.body as string)).toEqual({ model: 'model-x', prompt: 'p', seconds: '8', size: '1280x720' });
    expect(openai.parsePoll({ id: 'v1', status: 'in_progress', progress: 40 }, channel('openai', 'sk-up'), 'v1')).toEqual({ state: 'running', progress: 40 });
    expect(openai.parsePoll({ id: 'v1', status: 'completed', seconds: '8' }, channel('openai', 'sk-up'), 'v1')).toEqual({
      state: 'succeeded',
      assets: [{ url: 'https://upstream.example.com/api/v1/videos/v1/content', kind: 'video', headers: { authorization: 'Bearer sk-up' } }],
      usage: { seconds: 8 },
    });
    expect(mediaVendorOf('anthropic')).toBeNull();
  });
});

import type { MediaTask } from '../tasks/media-task.repository';
import { TERMINAL_STATES, type MediaTaskState } from '../tasks/media-task.state';
import { dscCodec, dscStatus, dscTime } from './dsc.codec';
import { mediaRouteOf } from './media-route';
import { nativeStatus } from './native.codec';
import { oaicVideoCodec, oaicVideoStatus } from './oaic-video.codec';

const STATES: MediaTaskState[] = ['queued', 'submitted', 'running', 'succeeded', 'failed', 'cancelled'];

const task = (overrides: Partial<MediaTask> = {}): MediaTask => ({
  id: 'video_0123456789abcdef0123456789abcdef',
  tenantId: 't',
  keyId: 'k',
  family: 'oaic',
  route: 'oaic.videos.create',
  queryKind: 'videos',
  model: 'sandbox-sora',
  channelId: 'c',
  protocol: 'openai',
  upstreamTaskId: 'u',
  state: 'running',
  progress: 40,
  job: { output: 'video', nativeKind: 'text2video', prompt: 'p', seconds: 5 },
  results: [],
  usage: null,
  errorCode: null,
  errorMessage: null,
  hold: null,
  clientRequestId: null,
  polls: 1,
  deadlineAt: new Date(),
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  updatedAt: new Date(),
  finishedAt: null,
  ...overrides,
});

describe('family status mappings of the one state machine', () => {
  it('oaic says processing until terminal, never completed while running', () => {
    expect(STATES.map(oaicVideoStatus)).toEqual(['processing', 'processing', 'processing', 'completed', 'failed', 'cancelled']);
    expect(oaicVideoCodec.task(task(), { links: [], requestId: 'r' })).toMatchObject({ status: 'processing', download_url: null, error: null });
    expect(oaicVideoCodec.task(task({ state: 'succeeded' }), { links: [], requestId: 'r' })).toMatchObject({
      status: 'completed',
      download_url: '/v1/videos/video_0123456789abcdef0123456789abcdef/content',
    });
  });

  it('dsc and nativemedia use their vendors’ words', () => {
    expect(STATES.map(dscStatus)).toEqual(['PENDING', 'PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED']);
    expect(STATES.map(nativeStatus)).toEqual(['submitted', 'submitted', 'processing', 'succeed', 'failed', 'failed']);
    for (const state of TERMINAL_STATES) expect(['SUCCEEDED', 'FAILED', 'CANCELED']).toContain(dscStatus(state));
    expect(dscTime(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02 03:04:05.678');
    const done = dscCodec.task(task({ family: 'dsc', state: 'succeeded', usage: { seconds: 5 } }), { links: ['https://gw/files/signed/x'], requestId: 'r' });
    expect(done).toMatchObject({
      request_id: 'r',
      output: { task_status: 'SUCCEEDED', video_url: 'https://gw/files/signed/x' },
      usage: { duration: 5, video_count: 1 },
    });
  });

  it('reads the family and query kind from route ids, and refuses others', () => {
    expect(mediaRouteOf('nativemedia.videos.omni-video.create')).toEqual({
      family: 'nativemedia',
      queryKind: 'omni-video',
      output: 'video',
      nativeKind: 'omni-video',
    });
    expect(mediaRouteOf('nativemedia.images.generations.get')).toEqual({ family: 'nativemedia', queryKind: 'generations' });
    expect(mediaRouteOf('dsc.image')).toMatchObject({ family: 'dsc', queryKind: 'tasks', output: 'image' });
    expect(() => mediaRouteOf('nativemedia.videos.generations.get')).toThrow('not a media route');
  });

  it('decodes an oaic request for a native std/pro model into the native job', () => {
    const decoded = oaicVideoCodec.decode(
      { family: 'oaic', queryKind: 'videos', output: 'video' },
      { model: 'sandbox-kling-pro', prompt: 'p', image: 'https://images.example.com/a.png' },
    );
    expect(decoded).toMatchObject({ catalogId: 'sandbox-kling-pro', capability: 'video', job: { nativeKind: 'image2video', mode: 'pro', seconds: 5 } });
  });
});

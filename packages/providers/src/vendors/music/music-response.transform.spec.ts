import { parseMusicCallback, parseMusicCreateAnswer, parseMusicRecordInfo } from './music-response.transform';
import { toMusicCreateRequest } from './music-request.transform';

describe('music upstream transforms', () => {
  it('sends the channel model and the gateway callback URL, never the client one, and the source task’s upstream id', () => {
    const request = toMusicCreateRequest(
      'extend',
      { taskId: 'gw-task', audioId: 'a1', continueAt: 10, callBackUrl: 'https://client.example/hook', model: 'sandbox-music' },
      { baseUrl: 'http://up/music/', apiKey: 'k', upstreamModel: 'V4_5', callBackUrl: 'https://gw.example/music/callbacks/t', sourceUpstreamTaskId: 'up-task' },
    );
    expect(request.url).toBe('http://up/music/api/v1/generate/extend');
    expect(request.headers.authorization).toBe('Bearer k');
    expect(JSON.parse(request.body as string)).toMatchObject({
      model: 'V4_5',
      callBackUrl: 'https://gw.example/music/callbacks/t',
      taskId: 'up-task',
      audioId: 'a1',
    });
  });

  it('reads the create envelope and refusals', () => {
    expect(parseMusicCreateAnswer(200, { code: 200, msg: 'success', data: { taskId: 'u1' } })).toBe('u1');
    expect(() => parseMusicCreateAnswer(200, { code: 400, msg: 'not supported by this account', data: null })).toThrow(/not supported/);
    expect(() => parseMusicCreateAnswer(200, { code: 200, msg: 'success', data: {} })).toThrow(/taskId/);
  });

  it('reads callbacks of songs and of other kinds', () => {
    const song = parseMusicCallback({
      code: 200,
      msg: 'ok',
      data: { callbackType: 'first', task_id: 'u1', data: [{ id: 'a1', audio_url: 'http://up/a.mp3', image_url: 'http://up/a.png', title: 'T', duration: 2 }] },
    });
    expect(song).toMatchObject({ upstreamTaskId: 'u1', stage: 'first', tracks: [{ id: 'a1', audioUrl: 'http://up/a.mp3', imageUrl: 'http://up/a.png' }] });
    const wav = parseMusicCallback({ code: 200, msg: 'ok', data: { callbackType: 'complete', task_id: 'u2', data: { audio_wav_url: 'http://up/a.wav' } } });
    expect(wav).toMatchObject({ stage: 'complete', files: { audio_wav: 'http://up/a.wav' } });
    expect(parseMusicCallback({ code: 501, msg: 'boom', data: { callbackType: 'error', task_id: 'u3' } })).toMatchObject({
      stage: 'failed',
      error: { code: 501 },
    });
    expect(parseMusicCallback({ hello: 'world' })).toBeNull();
  });

  it('reads record-info statuses', () => {
    const info = parseMusicRecordInfo({
      code: 200,
      msg: 'success',
      data: { taskId: 'u1', status: 'SUCCESS', response: { sunoData: [{ id: 'a1', audioUrl: 'http://up/a.mp3' }] } },
    });
    expect(info).toMatchObject({ stage: 'complete', tracks: [{ id: 'a1', audioUrl: 'http://up/a.mp3' }] });
    expect(
      parseMusicRecordInfo({ code: 200, msg: 'success', data: { taskId: 'u1', status: 'GENERATE_AUDIO_FAILED', errorCode: 531, errorMessage: 'x' } }),
    ).toMatchObject({
      stage: 'failed',
      error: { code: 531 },
    });
  });
});

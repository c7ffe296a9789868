/**
 * One valid request per built route (body, query, path parameters) against the sandbox catalog: the
 * starting points the fuzzer mutates, and the cases that reach the upstream unchanged.
 */
import type { RouteDef } from '@gateway/contracts';

export interface RouteSeed {
  bodies: unknown[];
  query: Record<string, string>;
  params: Record<string, string[]>;
  /** Multipart text fields beside the audio file. */
  fields?: Record<string, string>;
}

const user = (text: string) => [{ role: 'user', content: text }];

/** Music seeds call back a public name the gateway cannot reach (the deliveries just retry) and name a task that does not exist. */
const MUSIC_HOOK = 'https://hooks.example.com/music';
const MUSIC_TASK = '0123456789abcdef0123456789abcdef';

/** Media seeds point at a public image the sandbox upstream never fetches, and name a task that does not exist. */
const MEDIA_IMAGE = 'https://images.example.com/in.png';
const MEDIA_ID = '0123456789abcdef0123456789abcdef';

/** Assistants-API seeds name objects that do not exist (creating them is the create routes' part). */
const ASSISTANT_IDS = ['asst_0123456789abcdef01234567', 'asst_missing'];
const THREAD_IDS = ['thread_0123456789abcdef01234567', 'thread_missing'];

/** A nativemedia kind's create and query routes: `videos/text2video` gives nativemedia.videos.text2video.create and .get. */
function nativeSeeds(kind: string, body: Record<string, unknown>): Record<string, { bodies: unknown[]; params?: Record<string, string[]> }> {
  const id = `nativemedia.${kind.replace('/', '.')}`;
  return { [`${id}.create`]: { bodies: [body] }, [`${id}.get`]: { bodies: [], params: { task_id: [`task_${MEDIA_ID}`, 'task_missing'] } } };
}

const SEEDS: Record<string, Omit<RouteSeed, 'query' | 'params'> & Partial<Pick<RouteSeed, 'query' | 'params'>>> = {
  'oaic.models.list': { bodies: [], query: { limit: '5' } },
  'msgc.models.list': { bodies: [], query: { limit: '5' } },
  'oaic.chat': {
    bodies: [
      { model: 'sandbox-gpt', messages: user('hello'), max_tokens: 16 },
      { model: 'sandbox-claude', messages: [{ role: 'system', content: 'be brief' }, ...user('hi')], max_tokens: 8, stream: true },
      { model: 'sandbox-gemini', messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }] }], max_tokens: 8, temperature: 0.5 },
    ],
  },
  'oaic.completions': { bodies: [{ model: 'sandbox-gpt', prompt: 'Say hi', max_tokens: 8 }] },
  'oaic.responses.create': {
    bodies: [
      { model: 'sandbox-gpt', input: 'hello', max_output_tokens: 16 },
      { model: 'sandbox-claude', input: [{ role: 'user', content: 'hi' }], max_output_tokens: 8, stream: true },
    ],
  },
  'oaic.responses.get': { bodies: [], params: { response_id: ['resp_0123456789abcdef', 'resp_missing'] } },
  'oaic.embeddings': {
    bodies: [
      { model: 'sandbox-embedding', input: 'hello' },
      { model: 'sandbox-embedding', input: ['a', 'b'], dimensions: 8 },
    ],
  },
  'oaic.moderations': { bodies: [{ model: 'sandbox-moderation', input: 'hello' }] },
  'oaic.images.generations': { bodies: [{ model: 'sandbox-image', prompt: 'a red square', n: 1, size: '256x256', response_format: 'b64_json' }] },
  'oaic.audio.speech': { bodies: [{ model: 'sandbox-tts', input: 'hello there', voice: 'alloy', response_format: 'wav' }] },
  'oaic.audio.transcriptions': { bodies: [], fields: { model: 'sandbox-whisper', response_format: 'json' } },
  'oaic.audio.translations': { bodies: [], fields: { model: 'sandbox-whisper' } },
  'msgc.messages': {
    bodies: [
      { model: 'sandbox-claude', max_tokens: 16, messages: user('hello') },
      { model: 'sandbox-gpt', max_tokens: 8, system: 'be brief', messages: user('hi'), stream: true },
    ],
  },
  'msgc.count_tokens': { bodies: [{ model: 'sandbox-claude', messages: user('hello') }] },
  'genc.generate': {
    bodies: [{ contents: [{ role: 'user', parts: [{ text: 'hello' }] }], generationConfig: { maxOutputTokens: 16 } }],
    params: { model: ['sandbox-gemini', 'sandbox-gpt'] },
  },
  'genc.stream': {
    bodies: [{ contents: [{ role: 'user', parts: [{ text: 'hello' }] }], generationConfig: { maxOutputTokens: 8 } }],
    query: { alt: 'sse' },
    params: { model: ['sandbox-gemini', 'sandbox-claude'] },
  },
  'oaic.files.list': { bodies: [], query: { purpose: 'batch', limit: '5', order: 'asc' } },
  'oaic.files.create': { bodies: [], fields: { purpose: 'batch' } },
  'oaic.files.get': { bodies: [], params: { file_id: ['file-0123456789abcdef01234567', 'file-missing'] } },
  'oaic.files.delete': { bodies: [], params: { file_id: ['file-0123456789abcdef01234567', 'file-missing'] } },
  'oaic.files.content': { bodies: [], params: { file_id: ['file-0123456789abcdef01234567', 'file-missing'] } },
  'oaic.batches.list': { bodies: [], query: { limit: '5' } },
  'oaic.batches.create': { bodies: [{ input_file_id: 'file-0123456789abcdef01234567', endpoint: '/v1/chat/completions', completion_window: '24h' }] },
  'oaic.batches.get': { bodies: [], params: { batch_id: ['batch_0123456789abcdef01234567', 'batch_missing'] } },
  'oaic.batches.cancel': { bodies: [], params: { batch_id: ['batch_0123456789abcdef01234567', 'batch_missing'] } },
  'oaic.assistants.create': { bodies: [{ model: 'sandbox-gpt', name: 'fuzz', instructions: 'be brief', metadata: { k: 'v' } }, { model: 'sandbox-claude' }] },
  'oaic.assistants.list': { bodies: [], query: { limit: '5', order: 'asc' } },
  'oaic.assistants.get': { bodies: [], params: { assistant_id: ASSISTANT_IDS } },
  'oaic.assistants.update': { bodies: [{ name: 'renamed', model: 'sandbox-gpt' }], params: { assistant_id: ASSISTANT_IDS } },
  'oaic.assistants.delete': { bodies: [], params: { assistant_id: ASSISTANT_IDS } },
  'oaic.threads.create': { bodies: [{}, { messages: user('hello'), metadata: { k: 'v' } }] },
  'oaic.threads.get': { bodies: [], params: { thread_id: THREAD_IDS } },
  'oaic.threads.update': { bodies: [{ metadata: { k: 'v' } }], params: { thread_id: THREAD_IDS } },
  'oaic.threads.delete': { bodies: [], params: { thread_id: THREAD_IDS } },
  'oaic.threads.messages.create': { bodies: [{ role: 'user', content: 'hello' }], params: { thread_id: THREAD_IDS } },
  'oaic.threads.messages.list': { bodies: [], query: { limit: '5', order: 'asc' }, params: { thread_id: THREAD_IDS } },
  'oaic.threads.runs.create': {
    bodies: [{ assistant_id: ASSISTANT_IDS[0] }, { assistant_id: ASSISTANT_IDS[0], stream: true, instructions: 'be brief' }],
    params: { thread_id: THREAD_IDS },
  },
  'oaic.threads.runs.list': { bodies: [], query: { limit: '5' }, params: { thread_id: THREAD_IDS } },
  'music.generate': {
    bodies: [
      { customMode: false, instrumental: false, model: 'sandbox-music', callBackUrl: MUSIC_HOOK, prompt: 'a calm song' },
      { customMode: true, instrumental: true, model: 'sandbox-music', callBackUrl: MUSIC_HOOK, style: 'ambient', title: 'Tide' },
    ],
  },
  'music.extend': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', continueAt: 10, callBackUrl: MUSIC_HOOK }] },
  'music.generate-lyrics': { bodies: [{ prompt: 'the sea', callBackUrl: MUSIC_HOOK }] },
  'music.timestamped-lyrics': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', callBackUrl: MUSIC_HOOK }] },
  'music.style-generate': { bodies: [{ content: 'lofi', callBackUrl: MUSIC_HOOK }] },
  'music.generate-cover': { bodies: [{ taskId: MUSIC_TASK, callBackUrl: MUSIC_HOOK }] },
  'music.upload-cover': {
    bodies: [{ uploadUrl: 'https://example.com/in.mp3', style: 'jazz', title: 'Cover', model: 'sandbox-music', callBackUrl: MUSIC_HOOK }],
  },
  'music.upload-extend': { bodies: [{ uploadUrl: 'https://example.com/in.mp3', continueAt: 5, model: 'sandbox-music', callBackUrl: MUSIC_HOOK }] },
  'music.add-vocals': { bodies: [{ uploadUrl: 'https://example.com/in.mp3', prompt: 'sing', model: 'sandbox-music', callBackUrl: MUSIC_HOOK }] },
  'music.add-instrumental': { bodies: [{ uploadUrl: 'https://example.com/in.mp3', style: 'piano', model: 'sandbox-music', callBackUrl: MUSIC_HOOK }] },
  'music.generate-persona': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', name: 'Voice', description: 'warm', callBackUrl: MUSIC_HOOK }] },
  'music.vocal-removal': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', callBackUrl: MUSIC_HOOK }] },
  'music.split-stem': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', callBackUrl: MUSIC_HOOK }] },
  'music.replace-section': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', prompt: 'a bridge', infillStartS: 1, infillEndS: 2, callBackUrl: MUSIC_HOOK }] },
  'music.wav-generate': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', callBackUrl: MUSIC_HOOK }] },
  'music.mp4-generate': { bodies: [{ taskId: MUSIC_TASK, audioId: 'a1', callBackUrl: MUSIC_HOOK }] },
  'music.query.task': { bodies: [], query: { taskId: MUSIC_TASK } },
  'music.query.lyrics': { bodies: [], query: { taskId: MUSIC_TASK } },
  'music.query.vocal-removal': { bodies: [], query: { taskId: MUSIC_TASK } },
  'music.query.wav': { bodies: [], query: { taskId: MUSIC_TASK } },
  'music.query.mp4': { bodies: [], query: { taskId: MUSIC_TASK } },
  'music.query.cover': { bodies: [], query: { taskId: MUSIC_TASK } },
  'oaic.videos.create': { bodies: [], fields: { model: 'sandbox-sora', prompt: 'a lighthouse at dusk', seconds: '4' } },
  'oaic.videos.get': { bodies: [], params: { video_id: [`video_${MEDIA_ID}`, 'video_missing'] } },
  'oaic.videos.content': { bodies: [], params: { video_id: [`video_${MEDIA_ID}`, 'video_missing'] } },
  'dsc.image': {
    bodies: [{ model: 'sandbox-wan-image', input: { messages: [{ role: 'user', content: [{ text: 'a blue square' }] }] }, parameters: { size: '1024*1024' } }],
  },
  'dsc.video': { bodies: [{ model: 'sandbox-wan-video', input: { prompt: 'a red kite over hills', img_url: MEDIA_IMAGE } }] },
  'dsc.tasks.get': { bodies: [], params: { task_id: [`task_${MEDIA_ID}`, 'task_missing'] } },
  ...nativeSeeds('videos/text2video', { model_name: 'sandbox-kling', mode: 'std', prompt: 'a fox', duration: '5' }),
  ...nativeSeeds('videos/image2video', { model_name: 'sandbox-kling', mode: 'pro', prompt: 'the fox runs', image: MEDIA_IMAGE }),
  ...nativeSeeds('videos/omni-video', { model_name: 'sandbox-kling-omni', prompt: 'from <<<image_1>>>', image_list: [{ image_url: MEDIA_IMAGE }] }),
  ...nativeSeeds('images/generations', { model_name: 'sandbox-kling-image', prompt: 'a lantern', n: 1 }),
  ...nativeSeeds('images/omni-image', { model_name: 'sandbox-kling-omni-image', prompt: 'like <<<image_1>>>', image_list: [{ image_url: MEDIA_IMAGE }] }),
  'room.models': { bodies: [], query: { scope: 'all', limit: '3' } },
  'room.enterprise-context': { bodies: [] },
  'room.key-context': { bodies: [] },
  // The unauthenticated upstream callback (not a route of the contract): a token no task has.
  'music.callbacks': {
    bodies: [{ code: 200, msg: 'All generated successfully.', data: { callbackType: 'complete', task_id: MUSIC_TASK, data: [] } }],
    params: { token: ['A'.repeat(43), 'short'] },
  },
};

/** The seed of a route; a built route without one is a gap in the fuzzer, reported by the spec. */
export function seedOf(route: RouteDef): RouteSeed | undefined {
  const seed = SEEDS[route.id];
  return seed && { query: {}, params: {}, ...seed };
}

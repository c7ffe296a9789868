import { GencStreamQuery } from '../families/chat-family-call.schema';
import { MUSIC_ROUTES, MusicQuery, type MusicQueryKind, type MusicVerb } from '../families/music';
import { DscImageRequest, DscVideoRequest } from '../families/media/dsc-request.schema';
import { NativeImageRequest, NativeVideoRequest } from '../families/media/native-request.schema';
import { GenerateContentRequest } from '../families/genc/generate-request.schema';
import { CountTokensRequest, MessagesRequest } from '../families/msgc/messages-request.schema';
import {
  AssistantCreateRequest,
  AssistantIdParam,
  AssistantsListQuery,
  type AssistantsOp,
  AssistantUpdateRequest,
  MessageCreateRequest,
  RunCreateRequest,
  ThreadCreateRequest,
  ThreadIdParam,
  ThreadUpdateRequest,
} from '../families/oaic/assistants.schema';
import { SpeechRequest } from '../families/oaic/audio.schema';
import { ChatCompletionRequest } from '../families/oaic/chat.schema';
import { CompletionRequest } from '../families/oaic/completions.schema';
import { EmbeddingRequest } from '../families/oaic/embeddings.schema';
import { ImageGenerationRequest } from '../families/oaic/images.schema';
import { ModelListQuery } from '../families/oaic/models.schema';
import { ModerationRequest } from '../families/oaic/moderations.schema';
import { ResponseCreateRequest, ResponseIdParam } from '../families/oaic/responses.schema';
import { RoomModelsQuery } from '../families/room/room.schema';
import { BatchCreateRequest, BatchIdParam, BatchListQuery } from '../files/batch.schema';
import { FileIdParam, FileListQuery } from '../files/file.schema';
import { SUBJECTS } from '../nats/subjects';
import type { AuthScheme, Family, HttpMethod, RelayParam, RelayReply, RouteDef, RouteRelay, RouteReply, RouteStatus } from './route.types';

/**
 * What a route takes beside its path, what it answers, and, for a pure relay, the subject it is sent on
 * (served by the edge's table relay). A route without `relay` has a @RouteHandler at the edge that does real work.
 */
type Extra = Pick<RouteDef, 'query' | 'body' | 'multipart' | 'relay'> & { reply: RouteReply };

function route(id: string, method: HttpMethod, path: string, family: Family, status: RouteStatus, summary: string, built: boolean, extra: Extra): RouteDef {
  const auth: AuthScheme = family === 'msgc' ? 'msgc' : 'bearer';
  return { id, method, path, family, auth, status, summary, built, ...extra };
}

/** An `/oaic/v1/...` route and, when `alias` is set, its unprefixed `/v1/...` twin with the same handler. */
function oaic(id: string, method: HttpMethod, tail: string, status: RouteStatus, summary: string, built: boolean, alias: boolean, extra: Extra): RouteDef[] {
  const routes = [route(id, method, `/oaic/v1${tail}`, 'oaic', status, summary, built, extra)];
  if (alias) routes.push(route(id, method, `/v1${tail}`, 'oaic', status, `${summary} (unprefixed alias)`, built, extra));
  return routes;
}

const OAIC = SUBJECTS.chat.oaic;
const FILES = SUBJECTS.files.oaic;
const BATCHES = SUBJECTS.files.batches;

/** Relays to each service, by its payload convention (RelayShape). */
const toChat = (subject: string, reply: RelayReply = 'json', more: Partial<RouteRelay> = {}): RouteRelay => ({ subject, reply, shape: 'chat', ...more });
const toFiles = (subject: string, more: Partial<RouteRelay> = {}): RouteRelay => ({ subject, reply: 'json', shape: 'files', ...more });
const toMedia = (subject: string, more: Partial<RouteRelay> = {}): RouteRelay => ({ subject, reply: 'json', shape: 'media', ...more });

const FILE_ID = { file_id: { field: 'fileId', schema: FileIdParam, notFound: 'File' } };
const BATCH_ID = { batch_id: { field: 'batchId', schema: BatchIdParam, notFound: 'Batch' } };
const TASK_ID = { task_id: { field: 'taskId' } };
const GENC_MODEL = { model: { field: 'model' } };
const ASSISTANTS_IDS: Record<string, RelayParam> = {
  assistant_id: { field: 'assistantId', schema: AssistantIdParam },
  thread_id: { field: 'threadId', schema: ThreadIdParam },
};

const NATIVE_TASK: RouteReply = { json: 'NativeTask' };
const DSC_TASK: RouteReply = { json: 'DscTask' };
const ASSISTANTS_OBJECT: RouteReply = { json: 'AssistantsObject' };
const TRANSCRIPTION: RouteReply = { json: 'Transcription', bytes: ['text/plain'] };
const VIDEO: RouteReply = { json: 'Video' };

/** Every music create route goes to music.tasks.create with its verb; every query route to music.tasks.query with its kind. */
const music = (verb: MusicVerb, summary: string): RouteDef =>
  route(`music.${verb}`, 'POST', `/music/${verb}`, 'music', 'Stable', summary, true, {
    body: MUSIC_ROUTES[verb].body,
    reply: { json: 'MusicTaskCreated' },
    relay: { subject: SUBJECTS.music.create, reply: 'json', shape: 'music', fields: { verb } },
  });
const musicQuery = (kind: MusicQueryKind, summary: string): RouteDef =>
  route(`music.query.${kind}`, 'GET', `/music/query/${kind}`, 'music', 'Stable', summary, true, {
    query: MusicQuery,
    reply: { json: 'MusicTask' },
    relay: { subject: SUBJECTS.music.query, reply: 'json', shape: 'music-query', fields: { kind } },
  });
const nativeVideo = (kind: string, summary: string): RouteDef[] => [
  route(`nativemedia.videos.${kind}.create`, 'POST', `/nativemedia/v1/videos/${kind}`, 'nativemedia', 'Stable', `Create a ${summary} task`, true, {
    body: NativeVideoRequest,
    reply: NATIVE_TASK,
    relay: toMedia(SUBJECTS.media.create),
  }),
  route(`nativemedia.videos.${kind}.get`, 'GET', `/nativemedia/v1/videos/${kind}/{task_id}`, 'nativemedia', 'Stable', `Query a ${summary} task`, true, {
    reply: NATIVE_TASK,
    relay: toMedia(SUBJECTS.media.get, { params: TASK_ID }),
  }),
];
const nativeImage = (kind: string, summary: string): RouteDef[] => [
  route(`nativemedia.images.${kind}.create`, 'POST', `/nativemedia/v1/images/${kind}`, 'nativemedia', 'Stable', `Create ${summary} task`, true, {
    body: NativeImageRequest,
    reply: NATIVE_TASK,
    relay: toMedia(SUBJECTS.media.create),
  }),
  route(`nativemedia.images.${kind}.get`, 'GET', `/nativemedia/v1/images/${kind}/{task_id}`, 'nativemedia', 'Stable', `Query ${summary} task`, true, {
    reply: NATIVE_TASK,
    relay: toMedia(SUBJECTS.media.get, { params: TASK_ID }),
  }),
];
/** An assistants pass-through route: answered on chat.oaic.assistants, the operation its id, the ids its path names. */
const passThrough = (
  op: AssistantsOp,
  method: HttpMethod,
  tail: string,
  summary: string,
  extra: Omit<Extra, 'relay'>,
  reply: RelayReply = 'json',
): RouteDef => {
  const params = Object.fromEntries(Object.entries(ASSISTANTS_IDS).filter(([name]) => tail.includes(`{${name}}`)));
  const relay = toChat(OAIC.assistants, reply, { fields: { op }, params, ...(extra.query && { query: true }) });
  return route(`oaic.${op}`, method, `/oaic/v1${tail}`, 'oaic', 'Pass-through', summary, true, { ...extra, relay });
};

/**
 * Every public route of the contract: for any path, its `relay` names the subject (and so the service)
 * that answers it. Routes without one are answered by a @RouteHandler at the edge, which does real work
 * there (uploads, stored bytes, answers from the key itself). Routes with `built: false` are planned.
 */
export const ROUTES: readonly RouteDef[] = [
  // Edge handler (models/models.routes.ts): from the edge's cache of the tenant's visible models (accounts.models.visible).
  route('oaic.models.list', 'GET', '/oaic/v1/models', 'oaic', 'Stable', 'List the models this key may use', true, {
    query: ModelListQuery,
    reply: { json: 'ModelList' },
  }),
  route('msgc.models.list', 'GET', '/msgc/v1/models', 'msgc', 'Stable', 'List the models this key may use', true, {
    query: ModelListQuery,
    reply: { json: 'ModelList' },
  }),

  ...oaic('oaic.chat', 'POST', '/chat/completions', 'Stable', 'Create a chat completion', true, true, {
    body: ChatCompletionRequest,
    reply: { json: 'ChatCompletion', events: 'ChatCompletionChunk' },
    relay: toChat(OAIC.chat, 'json-or-sse', { cached: true }),
  }),
  ...oaic('oaic.completions', 'POST', '/completions', 'Stable', 'Create a text completion', true, true, {
    body: CompletionRequest,
    reply: { json: 'TextCompletion', events: 'TextCompletion' },
    relay: toChat(OAIC.completions, 'json-or-sse', { cached: true }),
  }),
  ...oaic('oaic.responses.create', 'POST', '/responses', 'Stable', 'Create a response', true, true, {
    body: ResponseCreateRequest,
    reply: { json: 'Response', events: 'ResponseStreamEvent' },
    relay: toChat(OAIC.responses, 'json-or-sse', { cached: true }),
  }),
  ...oaic('oaic.responses.get', 'GET', '/responses/{response_id}', 'Beta', 'Retrieve a stored response', true, true, {
    reply: { json: 'Response' },
    relay: toChat(OAIC.responseGet, 'json', { params: { response_id: { field: 'responseId', schema: ResponseIdParam } } }),
  }),
  ...oaic('oaic.embeddings', 'POST', '/embeddings', 'Stable', 'Create embeddings', true, true, {
    body: EmbeddingRequest,
    reply: { json: 'EmbeddingList' },
    relay: toChat(OAIC.embeddings),
  }),
  ...oaic('oaic.moderations', 'POST', '/moderations', 'Stable', 'Classify text for moderation', true, true, {
    body: ModerationRequest,
    reply: { json: 'Moderation' },
    relay: toChat(OAIC.moderations),
  }),
  // Edge handler (oaic/oaic.routes.ts) on chat.oaic.images: stored images read back as b64_json.
  ...oaic('oaic.images.generations', 'POST', '/images/generations', 'Stable', 'Generate images', true, false, {
    body: ImageGenerationRequest,
    reply: { json: 'Images' },
  }),
  // Edge handlers (oaic/oaic.routes.ts) on chat.oaic.audio.*: audio streamed to and from object storage.
  ...oaic('oaic.audio.speech', 'POST', '/audio/speech', 'Stable', 'Synthesize speech', true, false, { body: SpeechRequest, reply: { bytes: ['audio/*'] } }),
  ...oaic('oaic.audio.transcriptions', 'POST', '/audio/transcriptions', 'Stable', 'Transcribe audio', true, false, { multipart: true, reply: TRANSCRIPTION }),
  ...oaic('oaic.audio.translations', 'POST', '/audio/translations', 'Stable', 'Translate audio into English text', true, false, {
    multipart: true,
    reply: TRANSCRIPTION,
  }),

  ...oaic('oaic.files.list', 'GET', '/files', 'Stable', 'List files', true, false, {
    query: FileListQuery,
    reply: { json: 'FileList' },
    relay: toFiles(FILES.list, { query: true }),
  }),
  // Edge handlers (files/files.routes.ts) on files.oaic.files.create/content: bytes into and out of object storage.
  ...oaic('oaic.files.create', 'POST', '/files', 'Stable', 'Upload a file', true, false, { multipart: true, reply: { json: 'File' } }),
  ...oaic('oaic.files.get', 'GET', '/files/{file_id}', 'Stable', 'Retrieve a file record', true, false, {
    reply: { json: 'File' },
    relay: toFiles(FILES.get, { params: FILE_ID }),
  }),
  ...oaic('oaic.files.delete', 'DELETE', '/files/{file_id}', 'Stable', 'Delete a file', true, false, {
    reply: { json: 'FileDeleted' },
    relay: toFiles(FILES.delete, { params: FILE_ID }),
  }),
  ...oaic('oaic.files.content', 'GET', '/files/{file_id}/content', 'Stable', 'Download file content', true, false, {
    reply: { bytes: ['application/octet-stream'] },
  }),
  ...oaic('oaic.batches.list', 'GET', '/batches', 'Stable', 'List batches', true, true, {
    query: BatchListQuery,
    reply: { json: 'BatchList' },
    relay: toFiles(BATCHES.list, { query: true }),
  }),
  ...oaic('oaic.batches.create', 'POST', '/batches', 'Stable', 'Create a batch', true, true, {
    body: BatchCreateRequest,
    reply: { json: 'Batch' },
    relay: toFiles(BATCHES.create),
  }),
  ...oaic('oaic.batches.get', 'GET', '/batches/{batch_id}', 'Stable', 'Retrieve a batch', true, true, {
    reply: { json: 'Batch' },
    relay: toFiles(BATCHES.get, { params: BATCH_ID }),
  }),
  ...oaic('oaic.batches.cancel', 'POST', '/batches/{batch_id}/cancel', 'Stable', 'Cancel a batch', true, true, {
    reply: { json: 'Batch' },
    relay: toFiles(BATCHES.cancel, { params: BATCH_ID }),
  }),

  passThrough('assistants.create', 'POST', '/assistants', 'Create an assistant', { body: AssistantCreateRequest, reply: ASSISTANTS_OBJECT }),
  passThrough('assistants.list', 'GET', '/assistants', 'List assistants', { query: AssistantsListQuery, reply: { json: 'AssistantList' } }),
  passThrough('assistants.get', 'GET', '/assistants/{assistant_id}', 'Retrieve an assistant', { reply: ASSISTANTS_OBJECT }),
  passThrough('assistants.update', 'POST', '/assistants/{assistant_id}', 'Modify an assistant', { body: AssistantUpdateRequest, reply: ASSISTANTS_OBJECT }),
  passThrough('assistants.delete', 'DELETE', '/assistants/{assistant_id}', 'Delete an assistant', { reply: ASSISTANTS_OBJECT }),
  passThrough('threads.create', 'POST', '/threads', 'Create a thread', { body: ThreadCreateRequest, reply: ASSISTANTS_OBJECT }),
  passThrough('threads.get', 'GET', '/threads/{thread_id}', 'Retrieve a thread', { reply: ASSISTANTS_OBJECT }),
  passThrough('threads.update', 'POST', '/threads/{thread_id}', 'Modify a thread', { body: ThreadUpdateRequest, reply: ASSISTANTS_OBJECT }),
  passThrough('threads.delete', 'DELETE', '/threads/{thread_id}', 'Delete a thread', { reply: ASSISTANTS_OBJECT }),
  passThrough('threads.messages.create', 'POST', '/threads/{thread_id}/messages', 'Add a message to a thread', {
    body: MessageCreateRequest,
    reply: ASSISTANTS_OBJECT,
  }),
  passThrough('threads.messages.list', 'GET', '/threads/{thread_id}/messages', 'List thread messages', {
    query: AssistantsListQuery,
    reply: { json: 'AssistantsPage' },
  }),
  passThrough(
    'threads.runs.create',
    'POST',
    '/threads/{thread_id}/runs',
    'Start a run',
    { body: RunCreateRequest, reply: { json: 'AssistantsRun', events: 'AssistantsObject' } },
    'json-or-sse',
  ),
  passThrough('threads.runs.list', 'GET', '/threads/{thread_id}/runs', 'List runs', { query: AssistantsListQuery, reply: { json: 'AssistantsPage' } }),

  // Edge handlers (media/media.routes.ts) on media.task.create/content: a multipart body read, a stored video streamed.
  // JSON, or multipart/form-data as OpenAI's SDK sends it: the handler reads either and parses it with VideoCreateRequest.
  ...oaic('oaic.videos.create', 'POST', '/videos', 'Stable', 'Create a video task', true, false, { multipart: true, reply: VIDEO }),
  ...oaic('oaic.videos.get', 'GET', '/videos/{video_id}', 'Stable', 'Query a video task', true, false, {
    reply: VIDEO,
    relay: toMedia(SUBJECTS.media.get, { params: { video_id: { field: 'taskId' } } }),
  }),
  ...oaic('oaic.videos.content', 'GET', '/videos/{video_id}/content', 'Stable', 'Download a completed video', true, false, {
    reply: { bytes: ['video/mp4'] },
  }),

  route('msgc.messages', 'POST', '/msgc/v1/messages', 'msgc', 'Stable', 'Create a message', true, {
    body: MessagesRequest,
    reply: { json: 'MsgcMessage', events: 'MsgcStreamEvent' },
    relay: toChat(SUBJECTS.chat.msgc.messages, 'json-or-sse', { cached: true }),
  }),
  route('msgc.count_tokens', 'POST', '/msgc/v1/messages/count_tokens', 'msgc', 'Stable', 'Count the input tokens of a message request', true, {
    body: CountTokensRequest,
    reply: { json: 'MsgcTokenCount' },
    relay: toChat(SUBJECTS.chat.msgc.countTokens),
  }),

  route('genc.generate', 'POST', '/genc/v1beta/models/{model}:generateContent', 'genc', 'Stable', 'Generate content (text, function calls, images)', true, {
    body: GenerateContentRequest,
    reply: { json: 'GencGenerateContentResponse' },
    relay: toChat(SUBJECTS.chat.genc.generate, 'json', { params: GENC_MODEL, fields: { stream: false }, cached: true }),
  }),
  route('genc.stream', 'POST', '/genc/v1beta/models/{model}:streamGenerateContent', 'genc', 'Stable', 'Stream generated content (requires alt=sse)', true, {
    query: GencStreamQuery,
    body: GenerateContentRequest,
    reply: { events: 'GencGenerateContentResponse' },
    relay: toChat(SUBJECTS.chat.genc.generate, 'sse', { params: GENC_MODEL, fields: { stream: true }, cached: true }),
  }),

  route('dsc.image', 'POST', '/dsc/v1/services/aigc/multimodal-generation/generation', 'dsc', 'Stable', 'Generate an image from a prompt', true, {
    body: DscImageRequest,
    reply: DSC_TASK,
    relay: toMedia(SUBJECTS.media.create),
  }),
  route('dsc.video', 'POST', '/dsc/v1/services/aigc/video-generation/video-synthesis', 'dsc', 'Stable', 'Create a video synthesis task', true, {
    body: DscVideoRequest,
    reply: DSC_TASK,
    relay: toMedia(SUBJECTS.media.create),
  }),
  route('dsc.tasks.get', 'GET', '/dsc/v1/tasks/{task_id}', 'dsc', 'Stable', 'Query a media task', true, {
    reply: DSC_TASK,
    relay: toMedia(SUBJECTS.media.get, { params: TASK_ID }),
  }),

  ...nativeVideo('text2video', 'text-to-video'),
  ...nativeVideo('image2video', 'image-to-video'),
  ...nativeVideo('omni-video', 'omni video'),
  ...nativeImage('generations', 'an image'),
  ...nativeImage('omni-image', 'an omni image'),

  music('generate', 'Generate a song'),
  music('extend', 'Extend a generated song'),
  music('generate-lyrics', 'Generate lyrics from a prompt'),
  music('timestamped-lyrics', 'Word timings of a completed song'),
  music('style-generate', 'Expand a style hint'),
  music('generate-cover', 'Cover art for a completed task'),
  music('upload-cover', 'AI cover from uploaded audio'),
  music('upload-extend', 'Continue uploaded audio'),
  music('add-vocals', 'Add vocals to an instrumental'),
  music('add-instrumental', 'Add accompaniment to vocals'),
  music('generate-persona', 'Reusable voice identity from a completed song'),
  music('vocal-removal', 'Split vocals and accompaniment or stems'),
  music('split-stem', 'Stems from an existing result'),
  music('replace-section', 'Replace a section of a song'),
  music('wav-generate', 'WAV export'),
  music('mp4-generate', 'Music video from a completed song'),
  musicQuery('task', 'Query song and cover tasks'),
  musicQuery('lyrics', 'Query lyrics tasks'),
  musicQuery('vocal-removal', 'Query stem and vocal-removal tasks'),
  musicQuery('wav', 'Query WAV tasks'),
  musicQuery('mp4', 'Query music video tasks'),
  musicQuery('cover', 'Query cover-art tasks'),

  // Edge handlers (room/room.routes.ts): answered from the key and the visible-models cache.
  route('room.models', 'GET', '/v1/chatroom/models', 'room', 'Stable', 'Models visible to this key, by scope', true, {
    query: RoomModelsQuery,
    reply: { json: 'RoomModels' },
  }),
  route('room.enterprise-context', 'GET', '/v1/chatroom/enterprise-context', 'room', 'Stable', "The tenant's feature controls", true, {
    reply: { json: 'RoomEnterpriseContext' },
  }),
  route('room.key-context', 'GET', '/v1/chatroom/key-context', 'room', 'Stable', 'The calling key, its tenant and feature controls', true, {
    reply: { json: 'RoomKeyContext' },
  }),
];

export const BUILT_ROUTES = ROUTES.filter((r) => r.built);

import { GencStreamQuery } from '../families/chat-family-call.schema';
import { MUSIC_ROUTES, MusicQuery } from '../families/music';
import { DscImageRequest, DscVideoRequest } from '../families/media/dsc-request.schema';
import { NativeImageRequest, NativeVideoRequest } from '../families/media/native-request.schema';
import { GenerateContentRequest } from '../families/genc/generate-request.schema';
import { CountTokensRequest, MessagesRequest } from '../families/msgc/messages-request.schema';
import {
  AssistantCreateRequest,
  AssistantsListQuery,
  AssistantUpdateRequest,
  MessageCreateRequest,
  RunCreateRequest,
  ThreadCreateRequest,
  ThreadUpdateRequest,
} from '../families/oaic/assistants.schema';
import { SpeechRequest } from '../families/oaic/audio.schema';
import { ChatCompletionRequest } from '../families/oaic/chat.schema';
import { CompletionRequest } from '../families/oaic/completions.schema';
import { EmbeddingRequest } from '../families/oaic/embeddings.schema';
import { ImageGenerationRequest } from '../families/oaic/images.schema';
import { ModelListQuery } from '../families/oaic/models.schema';
import { ModerationRequest } from '../families/oaic/moderations.schema';
import { ResponseCreateRequest } from '../families/oaic/responses.schema';
import { RoomModelsQuery } from '../families/room/room.schema';
import { BatchCreateRequest, BatchListQuery } from '../files/batch.schema';
import { FileListQuery } from '../files/file.schema';
import type { AuthScheme, Family, HttpMethod, RouteDef, RouteReply, RouteStatus } from './route.types';

/** What a route takes beside its path, and what it answers (every route of the table names its answer). */
type Extra = Pick<RouteDef, 'query' | 'body' | 'multipart'> & { reply: RouteReply };

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

const NATIVE_TASK: RouteReply = { json: 'NativeTask' };
const DSC_TASK: RouteReply = { json: 'DscTask' };
const ASSISTANTS_OBJECT: RouteReply = { json: 'AssistantsObject' };
const TRANSCRIPTION: RouteReply = { json: 'Transcription', bytes: ['text/plain'] };
const VIDEO: RouteReply = { json: 'Video' };

const music = (verb: keyof typeof MUSIC_ROUTES, summary: string): RouteDef =>
  route(`music.${verb}`, 'POST', `/music/${verb}`, 'music', 'Stable', summary, true, { body: MUSIC_ROUTES[verb].body, reply: { json: 'MusicTaskCreated' } });
const musicQuery = (kind: string, summary: string): RouteDef =>
  route(`music.query.${kind}`, 'GET', `/music/query/${kind}`, 'music', 'Stable', summary, true, { query: MusicQuery, reply: { json: 'MusicTask' } });
const nativeVideo = (kind: string, summary: string): RouteDef[] => [
  route(`nativemedia.videos.${kind}.create`, 'POST', `/nativemedia/v1/videos/${kind}`, 'nativemedia', 'Stable', `Create a ${summary} task`, true, {
    body: NativeVideoRequest,
    reply: NATIVE_TASK,
  }),
  route(`nativemedia.videos.${kind}.get`, 'GET', `/nativemedia/v1/videos/${kind}/{task_id}`, 'nativemedia', 'Stable', `Query a ${summary} task`, true, {
    reply: NATIVE_TASK,
  }),
];
const nativeImage = (kind: string, summary: string): RouteDef[] => [
  route(`nativemedia.images.${kind}.create`, 'POST', `/nativemedia/v1/images/${kind}`, 'nativemedia', 'Stable', `Create ${summary} task`, true, {
    body: NativeImageRequest,
    reply: NATIVE_TASK,
  }),
  route(`nativemedia.images.${kind}.get`, 'GET', `/nativemedia/v1/images/${kind}/{task_id}`, 'nativemedia', 'Stable', `Query ${summary} task`, true, {
    reply: NATIVE_TASK,
  }),
];
const passThrough = (id: string, method: HttpMethod, tail: string, summary: string, extra: Extra): RouteDef =>
  route(`oaic.${id}`, method, `/oaic/v1${tail}`, 'oaic', 'Pass-through', summary, true, extra);

/** Every public route of the contract. Routes with `built: false` are planned, listed apart in the index. */
export const ROUTES: readonly RouteDef[] = [
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
  }),
  ...oaic('oaic.completions', 'POST', '/completions', 'Stable', 'Create a text completion', true, true, {
    body: CompletionRequest,
    reply: { json: 'TextCompletion', events: 'TextCompletion' },
  }),
  ...oaic('oaic.responses.create', 'POST', '/responses', 'Stable', 'Create a response', true, true, {
    body: ResponseCreateRequest,
    reply: { json: 'Response', events: 'ResponseStreamEvent' },
  }),
  ...oaic('oaic.responses.get', 'GET', '/responses/{response_id}', 'Beta', 'Retrieve a stored response', true, true, { reply: { json: 'Response' } }),
  ...oaic('oaic.embeddings', 'POST', '/embeddings', 'Stable', 'Create embeddings', true, true, { body: EmbeddingRequest, reply: { json: 'EmbeddingList' } }),
  ...oaic('oaic.moderations', 'POST', '/moderations', 'Stable', 'Classify text for moderation', true, true, {
    body: ModerationRequest,
    reply: { json: 'Moderation' },
  }),
  ...oaic('oaic.images.generations', 'POST', '/images/generations', 'Stable', 'Generate images', true, false, {
    body: ImageGenerationRequest,
    reply: { json: 'Images' },
  }),
  ...oaic('oaic.audio.speech', 'POST', '/audio/speech', 'Stable', 'Synthesize speech', true, false, { body: SpeechRequest, reply: { bytes: ['audio/*'] } }),
  ...oaic('oaic.audio.transcriptions', 'POST', '/audio/transcriptions', 'Stable', 'Transcribe audio', true, false, { multipart: true, reply: TRANSCRIPTION }),
  ...oaic('oaic.audio.translations', 'POST', '/audio/translations', 'Stable', 'Translate audio into English text', true, false, {
    multipart: true,
    reply: TRANSCRIPTION,
  }),

  ...oaic('oaic.files.list', 'GET', '/files', 'Stable', 'List files', true, false, { query: FileListQuery, reply: { json: 'FileList' } }),
  ...oaic('oaic.files.create', 'POST', '/files', 'Stable', 'Upload a file', true, false, { multipart: true, reply: { json: 'File' } }),
  ...oaic('oaic.files.get', 'GET', '/files/{file_id}', 'Stable', 'Retrieve a file record', true, false, { reply: { json: 'File' } }),
  ...oaic('oaic.files.delete', 'DELETE', '/files/{file_id}', 'Stable', 'Delete a file', true, false, { reply: { json: 'FileDeleted' } }),
  ...oaic('oaic.files.content', 'GET', '/files/{file_id}/content', 'Stable', 'Download file content', true, false, {
    reply: { bytes: ['application/octet-stream'] },
  }),
  ...oaic('oaic.batches.list', 'GET', '/batches', 'Stable', 'List batches', true, true, { query: BatchListQuery, reply: { json: 'BatchList' } }),
  ...oaic('oaic.batches.create', 'POST', '/batches', 'Stable', 'Create a batch', true, true, { body: BatchCreateRequest, reply: { json: 'Batch' } }),
  ...oaic('oaic.batches.get', 'GET', '/batches/{batch_id}', 'Stable', 'Retrieve a batch', true, true, { reply: { json: 'Batch' } }),
  ...oaic('oaic.batches.cancel', 'POST', '/batches/{batch_id}/cancel', 'Stable', 'Cancel a batch', true, true, { reply: { json: 'Batch' } }),

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
  passThrough('threads.runs.create', 'POST', '/threads/{thread_id}/runs', 'Start a run', {
    body: RunCreateRequest,
    reply: { json: 'AssistantsRun', events: 'AssistantsObject' },
  }),
  passThrough('threads.runs.list', 'GET', '/threads/{thread_id}/runs', 'List runs', { query: AssistantsListQuery, reply: { json: 'AssistantsPage' } }),

  // JSON, or multipart/form-data as OpenAI's SDK sends it: the handler reads either and parses it with VideoCreateRequest.
  ...oaic('oaic.videos.create', 'POST', '/videos', 'Stable', 'Create a video task', true, false, { multipart: true, reply: VIDEO }),
  ...oaic('oaic.videos.get', 'GET', '/videos/{video_id}', 'Stable', 'Query a video task', true, false, { reply: VIDEO }),
  ...oaic('oaic.videos.content', 'GET', '/videos/{video_id}/content', 'Stable', 'Download a completed video', true, false, {
    reply: { bytes: ['video/mp4'] },
  }),

  route('msgc.messages', 'POST', '/msgc/v1/messages', 'msgc', 'Stable', 'Create a message', true, {
    body: MessagesRequest,
    reply: { json: 'MsgcMessage', events: 'MsgcStreamEvent' },
  }),
  route('msgc.count_tokens', 'POST', '/msgc/v1/messages/count_tokens', 'msgc', 'Stable', 'Count the input tokens of a message request', true, {
    body: CountTokensRequest,
    reply: { json: 'MsgcTokenCount' },
  }),

  route('genc.generate', 'POST', '/genc/v1beta/models/{model}:generateContent', 'genc', 'Stable', 'Generate content (text, function calls, images)', true, {
    body: GenerateContentRequest,
    reply: { json: 'GencGenerateContentResponse' },
  }),
  route('genc.stream', 'POST', '/genc/v1beta/models/{model}:streamGenerateContent', 'genc', 'Stable', 'Stream generated content (requires alt=sse)', true, {
    query: GencStreamQuery,
    body: GenerateContentRequest,
    reply: { events: 'GencGenerateContentResponse' },
  }),

  route('dsc.image', 'POST', '/dsc/v1/services/aigc/multimodal-generation/generation', 'dsc', 'Stable', 'Generate an image from a prompt', true, {
    body: DscImageRequest,
    reply: DSC_TASK,
  }),
  route('dsc.video', 'POST', '/dsc/v1/services/aigc/video-generation/video-synthesis', 'dsc', 'Stable', 'Create a video synthesis task', true, {
    body: DscVideoRequest,
    reply: DSC_TASK,
  }),
  route('dsc.tasks.get', 'GET', '/dsc/v1/tasks/{task_id}', 'dsc', 'Stable', 'Query a media task', true, { reply: DSC_TASK }),

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

// Every schema the public routes answer with, by its name in the OpenAPI document: the route table names
// a route's answers from this map, and the document's components are generated from it.
import type { z } from 'zod';
import { AssistantList, UpstreamAssistantsObject, UpstreamList, UpstreamRun } from '../families/oaic/assistants.schema';
import { TranscriptionResponse } from '../families/oaic/audio.schema';
import { ChatCompletionResponse, ChatCompletionStreamChunk } from '../families/oaic/chat-response.schema';
import { TextCompletionResponse } from '../families/oaic/completions.schema';
import { EmbeddingResponse } from '../families/oaic/embeddings.schema';
import { ImagesResponse } from '../families/oaic/images.schema';
import { ModelList } from '../families/oaic/models.schema';
import { ModerationResponse } from '../families/oaic/moderations.schema';
import { ResponseResource, ResponseStreamEvent } from '../families/oaic/responses-response.schema';
import { DscErrorBody, MusicErrorBody, NativeMediaErrorBody, OaicErrorBody, RoomErrorBody } from '../families/family-errors.schema';
import { GencErrorBody, GenerateContentResponse } from '../families/genc/generate-response.schema';
import { DscTaskAnswer, NativeTaskAnswer, VideoObject } from '../families/media/media-answer.schema';
import { CountTokensResponse } from '../families/msgc/messages-request.schema';
import { MessagesResponse, MsgcErrorBody, MsgcStreamEvent } from '../families/msgc/messages-response.schema';
import { MusicCreatedAnswer, MusicTaskAnswer } from '../families/music/music-task.schema';
import { RoomEnterpriseContextAnswer, RoomKeyContextAnswer, RoomModelsAnswer } from '../families/room/room.schema';
import { BatchList, BatchObject } from '../files/batch.schema';
import { FileDeleted, FileList, FileObject } from '../files/file.schema';
import type { Family } from './route.types';

export const REPLY_SCHEMAS = {
  ModelList,
  ChatCompletion: ChatCompletionResponse,
  ChatCompletionChunk: ChatCompletionStreamChunk,
  TextCompletion: TextCompletionResponse,
  Response: ResponseResource,
  ResponseStreamEvent,
  EmbeddingList: EmbeddingResponse,
  Moderation: ModerationResponse,
  Images: ImagesResponse,
  Transcription: TranscriptionResponse,
  File: FileObject,
  FileList,
  FileDeleted,
  Batch: BatchObject,
  BatchList,
  AssistantsObject: UpstreamAssistantsObject,
  AssistantsRun: UpstreamRun,
  AssistantsPage: UpstreamList,
  AssistantList,
  Video: VideoObject,
  MsgcMessage: MessagesResponse,
  MsgcStreamEvent,
  MsgcTokenCount: CountTokensResponse,
  GencGenerateContentResponse: GenerateContentResponse,
  DscTask: DscTaskAnswer,
  NativeTask: NativeTaskAnswer,
  MusicTaskCreated: MusicCreatedAnswer,
  MusicTask: MusicTaskAnswer,
  RoomModels: RoomModelsAnswer,
  RoomEnterpriseContext: RoomEnterpriseContextAnswer,
  RoomKeyContext: RoomKeyContextAnswer,
  OaicError: OaicErrorBody,
  MsgcError: MsgcErrorBody,
  GencError: GencErrorBody,
  DscError: DscErrorBody,
  NativeMediaError: NativeMediaErrorBody,
  MusicError: MusicErrorBody,
  RoomError: RoomErrorBody,
} as const satisfies Record<string, z.ZodType>;

export type ReplySchemaName = keyof typeof REPLY_SCHEMAS;

/** The error body of each family's dialect: what every route of the family answers on failure, SSE included. */
export const FAMILY_ERRORS: Record<Family, ReplySchemaName> = {
  oaic: 'OaicError',
  msgc: 'MsgcError',
  genc: 'GencError',
  dsc: 'DscError',
  nativemedia: 'NativeMediaError',
  music: 'MusicError',
  room: 'RoomError',
};

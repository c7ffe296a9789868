import type { z } from 'zod';
import type { ReplySchemaName } from './reply-schemas';

export type Family = 'oaic' | 'msgc' | 'genc' | 'dsc' | 'nativemedia' | 'music' | 'room';
export type AuthScheme = 'bearer' | 'msgc';
export type RouteStatus = 'Stable' | 'Beta' | 'Pass-through';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route answers on success (200), each named in REPLY_SCHEMAS or by its media type. */
export interface RouteReply {
  /** An `application/json` body. */
  json?: ReplySchemaName;
  /** A `text/event-stream` (when the body asks for a stream, or always when there is no `json`): the data of each event. */
  events?: ReplySchemaName;
  /** Media types of an answer sent as bytes or plain text: audio, video, a stored file, subtitles. */
  bytes?: readonly string[];
}

/** One public route: the single source for registration, the route index and the OpenAPI document. */
export interface RouteDef {
  /** Stable handler id; `/v1` aliases share the handler id of their `/oaic/v1` route. */
  id: string;
  method: HttpMethod;
  /** Path as the contract writes it, parameters in braces: `/oaic/v1/responses/{response_id}`. */
  path: string;
  family: Family;
  auth: AuthScheme;
  status: RouteStatus;
  summary: string;
  /** False while the route is only planned: listed apart in the index, never registered. */
  built: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Request body is multipart/form-data rather than JSON. */
  multipart?: boolean;
  /** What it answers; every route of the table names it (test fixtures may leave it out). */
  reply?: RouteReply;
}

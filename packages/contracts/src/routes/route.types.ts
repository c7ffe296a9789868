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

/**
 * How a relayed route is answered: `json`, one reply; `sse`, a stream relayed event by event;
 * `json-or-sse`, a stream when the body asks for one (`stream: true`), else one reply.
 */
export type RelayReply = 'json' | 'sse' | 'json-or-sse';

/**
 * The payload and reply convention of the service a relay talks to (implemented once each at the edge):
 * `chat` the tenant's call with its body inline or by claim check; `files` the call with its body inline;
 * `media` the call with the public origin for signed links; `music` the call after the family's text
 * checks, answered in the music envelope; `music-query` the tenant and the queried task, in the envelope.
 */
export type RelayShape = 'chat' | 'files' | 'media' | 'music' | 'music-query';

/** A path parameter carried into the bus payload. */
export interface RelayParam {
  /** The payload field it fills. */
  field: string;
  /** Checks the value; a refused value is a 400 naming the parameter. */
  schema?: z.ZodType<string>;
  /** With a schema: a refused value is instead a 404 naming this object (`No such File object: …`), as an unknown id is. */
  notFound?: string;
}

/** A route the edge serves straight from the table: the subject it is sent on and how it is answered. */
export interface RouteRelay {
  /** From SUBJECTS; its first segment names the service that answers. */
  subject: string;
  reply: RelayReply;
  shape: RelayShape;
  /** Path parameters the payload carries, by their name in the path. */
  params?: Readonly<Record<string, RelayParam>>;
  /** The parsed query travels as the payload's `query`. */
  query?: boolean;
  /** Fixed payload fields: the operation, verb or kind a shared subject needs. */
  fields?: Readonly<Record<string, string | boolean>>;
  /** The response cache may answer it: the key's cache settings travel with the call, and `x-gateway-cache` is read. */
  cached?: boolean;
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
  /** Served by the edge's table relay; a route without one has a @RouteHandler at the edge. */
  relay?: RouteRelay;
}

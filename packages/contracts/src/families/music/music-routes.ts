// What each music route is: its body schema, the query route that reads its tasks, and the callback
// stages its tasks go through (songs report text, first and complete; the other kinds only complete).
import type { z } from 'zod';
import {
  MusicAddInstrumentalRequest,
  MusicAddVocalsRequest,
  MusicCoverArtRequest,
  MusicExtendRequest,
  MusicGenerateRequest,
  MusicLyricsRequest,
  MusicMp4Request,
  MusicPersonaRequest,
  MusicReplaceSectionRequest,
  MusicSplitStemRequest,
  MusicStyleRequest,
  MusicTimestampedLyricsRequest,
  MusicUploadCoverRequest,
  MusicUploadExtendRequest,
  MusicVocalRemovalRequest,
  MusicWavRequest,
} from './music-request.schema';

export const MUSIC_QUERY_KINDS = ['task', 'lyrics', 'vocal-removal', 'wav', 'mp4', 'cover'] as const;
export type MusicQueryKind = (typeof MUSIC_QUERY_KINDS)[number];

export const MUSIC_CALLBACK_TYPES = ['text', 'first', 'complete'] as const;
export type MusicCallbackType = (typeof MUSIC_CALLBACK_TYPES)[number];

export interface MusicRouteSpec {
  body: z.ZodType;
  queryKind: MusicQueryKind;
  stages: readonly MusicCallbackType[];
}

const SONG = MUSIC_CALLBACK_TYPES;
const ONCE = ['complete'] as const;

export const MUSIC_ROUTES = {
  generate: { body: MusicGenerateRequest, queryKind: 'task', stages: SONG },
  extend: { body: MusicExtendRequest, queryKind: 'task', stages: SONG },
  'generate-lyrics': { body: MusicLyricsRequest, queryKind: 'lyrics', stages: ONCE },
  'timestamped-lyrics': { body: MusicTimestampedLyricsRequest, queryKind: 'lyrics', stages: ONCE },
  'style-generate': { body: MusicStyleRequest, queryKind: 'lyrics', stages: ONCE },
  'generate-cover': { body: MusicCoverArtRequest, queryKind: 'cover', stages: ONCE },
  'upload-cover': { body: MusicUploadCoverRequest, queryKind: 'task', stages: SONG },
  'upload-extend': { body: MusicUploadExtendRequest, queryKind: 'task', stages: SONG },
  'add-vocals': { body: MusicAddVocalsRequest, queryKind: 'task', stages: SONG },
  'add-instrumental': { body: MusicAddInstrumentalRequest, queryKind: 'task', stages: SONG },
  'generate-persona': { body: MusicPersonaRequest, queryKind: 'task', stages: ONCE },
  'vocal-removal': { body: MusicVocalRemovalRequest, queryKind: 'vocal-removal', stages: ONCE },
  'split-stem': { body: MusicSplitStemRequest, queryKind: 'vocal-removal', stages: ONCE },
  'replace-section': { body: MusicReplaceSectionRequest, queryKind: 'task', stages: SONG },
  'wav-generate': { body: MusicWavRequest, queryKind: 'wav', stages: ONCE },
  'mp4-generate': { body: MusicMp4Request, queryKind: 'mp4', stages: ONCE },
} as const satisfies Record<string, MusicRouteSpec>;

export type MusicVerb = keyof typeof MUSIC_ROUTES;
export const MUSIC_VERBS = Object.keys(MUSIC_ROUTES) as MusicVerb[];

export function isMusicVerb(value: string): value is MusicVerb {
  return Object.prototype.hasOwnProperty.call(MUSIC_ROUTES, value);
}

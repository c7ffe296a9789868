import { MusicTrackMeta } from '@gateway/contracts';
import { z } from 'zod';

/** A track as the task row keeps it: media as object keys in the gateway's storage, never upstream URLs. */
export const StoredTrack = z.object({
  id: z.string(),
  audioKey: z.string().nullable(),
  streamAudioKey: z.string().nullable(),
  imageKey: z.string().nullable(),
  ...MusicTrackMeta.shape,
});
export type StoredTrack = z.infer<typeof StoredTrack>;

export const StoredMusicResult = z.object({
  tracks: z.array(StoredTrack),
  /** Named files (object keys). */
  files: z.record(z.string(), z.string()),
  details: z.record(z.string(), z.unknown()),
});
export type StoredMusicResult = z.infer<typeof StoredMusicResult>;

export const EMPTY_RESULT: StoredMusicResult = { tracks: [], files: {}, details: {} };

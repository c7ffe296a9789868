// Where each gateway music route goes on the Suno-style upstream, and where its tasks are read back.
import type { MusicVerb } from '@gateway/contracts';

export interface MusicEndpoint {
  create: string;
  recordInfo: string;
}

const SONGS = '/api/v1/generate/record-info';

export const MUSIC_ENDPOINTS: Record<MusicVerb, MusicEndpoint> = {
  generate: { create: '/api/v1/generate', recordInfo: SONGS },
  extend: { create: '/api/v1/generate/extend', recordInfo: SONGS },
  'upload-cover': { create: '/api/v1/generate/upload-cover', recordInfo: SONGS },
  'upload-extend': { create: '/api/v1/generate/upload-extend', recordInfo: SONGS },
  'add-vocals': { create: '/api/v1/generate/add-vocals', recordInfo: SONGS },
  'add-instrumental': { create: '/api/v1/generate/add-instrumental', recordInfo: SONGS },
  'replace-section': { create: '/api/v1/generate/replace-section', recordInfo: SONGS },
  'generate-persona': { create: '/api/v1/generate/generate-persona', recordInfo: SONGS },
  'generate-lyrics': { create: '/api/v1/lyrics', recordInfo: '/api/v1/lyrics/record-info' },
  'timestamped-lyrics': { create: '/api/v1/generate/get-timestamped-lyrics', recordInfo: '/api/v1/lyrics/record-info' },
  'style-generate': { create: '/api/v1/style/generate', recordInfo: '/api/v1/lyrics/record-info' },
  'generate-cover': { create: '/api/v1/suno/cover/generate', recordInfo: '/api/v1/suno/cover/record-info' },
  'vocal-removal': { create: '/api/v1/vocal-removal/generate', recordInfo: '/api/v1/vocal-removal/record-info' },
  'split-stem': { create: '/api/v1/vocal-removal/split-stem', recordInfo: '/api/v1/vocal-removal/record-info' },
  'wav-generate': { create: '/api/v1/wav/generate', recordInfo: '/api/v1/wav/record-info' },
  'mp4-generate': { create: '/api/v1/mp4/generate', recordInfo: '/api/v1/mp4/record-info' },
};

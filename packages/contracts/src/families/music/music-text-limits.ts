// Text over the family's limits is a 413 naming the field (spec 7, 8). The spec gives no numbers; these
// are the Suno-style API's own limits for its current models.
import { GatewayError } from '../../errors/gateway-error';
import type { MusicVerb } from './music-routes';

export const MUSIC_TEXT_LIMITS = {
  simplePrompt: 500,
  lyrics: 5000,
  style: 1000,
  title: 100,
  lyricsPrompt: 200,
  styleContent: 1000,
  negativeTags: 1000,
} as const;

function over(field: string, value: unknown, limit: number): GatewayError | null {
  if (typeof value !== 'string' || value.length <= limit) return null;
  return new GatewayError('payload_too_large', `'${field}' is too long: ${value.length} characters, at most ${limit}.`, field);
}

/** The first text field over its limit, as a payload_too_large error, or null. */
export function musicTextProblem(verb: MusicVerb, body: Record<string, unknown>): GatewayError | null {
  const L = MUSIC_TEXT_LIMITS;
  const promptLimit = verb === 'generate-lyrics' ? L.lyricsPrompt : verb === 'generate' && body.customMode === false ? L.simplePrompt : L.lyrics;
  return (
    over('prompt', body.prompt, promptLimit) ??
    over('style', body.style, L.style) ??
    over('title', body.title, L.title) ??
    over('content', body.content, L.styleContent) ??
    over('negativeTags', body.negativeTags, L.negativeTags)
  );
}

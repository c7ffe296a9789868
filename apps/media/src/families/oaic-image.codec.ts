// `POST /oaic/v1/images/generations` for a native-media image model: OpenAI's images request in, the
// native image route's job out, and OpenAI's images answer from the ended task.
import { GatewayError, ImageGenerationRequest, parseOrThrow, type StoredImagesReply } from '@gateway/contracts';
import type { MediaJob } from '@gateway/providers';
import type { MediaTask } from '../tasks/media-task.repository';
import type { DecodedCreate } from './family-codec';

/** The aspect ratios the native image route draws. */
export const NATIVE_IMAGE_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'] as const;
/** The most images one native image task makes. */
export const NATIVE_MAX_IMAGES = 9;
const NATIVE_MAX_PROMPT = 4000;
/** The images fields that have a native counterpart (`user` only identifies the end user, and is not sent on). */
const HONOURED = new Set(['model', 'prompt', 'n', 'size', 'response_format', 'user']);

export type ImagesFormat = 'url' | 'b64_json';

export interface DecodedImages extends DecodedCreate {
  format: ImagesFormat;
}

/** How far (as a factor) a size's shape may be from the native ratio it is drawn at: 1792x1024 (1.75) is 16:9 (1.78). */
const RATIO_TOLERANCE = 1.05;

/**
 * `<w>x<h>` as the native `aspect_ratio` nearest its shape (the native route picks the pixels); a shape
 * no native ratio comes within 5 % of is refused, naming `size`.
 */
export function aspectRatioOfSize(size: string, model: string): string | undefined {
  if (size === 'auto') return undefined;
  const [w, h] = size.split('x').map(Number) as [number, number];
  const shape = w > 0 && h > 0 ? Math.log(w / h) : Number.NaN;
  const distance = (ratio: string) => {
    const [rw, rh] = ratio.split(':').map(Number) as [number, number];
    return Math.abs(shape - Math.log(rw / rh));
  };
  const nearest = [...NATIVE_IMAGE_RATIOS].sort((a, b) => distance(a) - distance(b))[0]!;
  if (!(distance(nearest) <= Math.log(RATIO_TOLERANCE))) {
    throw GatewayError.invalid(
      `size '${size}' cannot be drawn by '${model}': its shape must be within 5 % of one of ${NATIVE_IMAGE_RATIOS.join(', ')} (e.g. 1024x1024, 1792x1024, 1536x1024).`,
      'size',
    );
  }
  return nearest;
}

/** Decodes the request into the native image job, refusing what the native route cannot honour by name. */
export function decodeOaicImages(body: unknown): DecodedImages {
  const request = parseOrThrow(ImageGenerationRequest, body);
  const extra = Object.keys(request).find((field) => !HONOURED.has(field));
  if (extra) throw GatewayError.invalid(`${extra} is not supported for '${request.model}', a native-media image model.`, extra);
  if (request.prompt.length > NATIVE_MAX_PROMPT) {
    throw GatewayError.invalid(`prompt is ${request.prompt.length} characters long; '${request.model}' takes at most ${NATIVE_MAX_PROMPT}.`, 'prompt');
  }
  const images = request.n ?? 1;
  if (images > NATIVE_MAX_IMAGES) throw GatewayError.invalid(`n may be at most ${NATIVE_MAX_IMAGES} for '${request.model}'.`, 'n');
  const job: MediaJob = { output: 'image', nativeKind: 'generations', prompt: request.prompt, images };
  if (request.size !== undefined) {
    const ratio = aspectRatioOfSize(request.size, request.model);
    if (ratio) job.aspectRatio = ratio;
  }
  return { catalogId: request.model, modelParam: 'model', capability: 'image', job, format: request.response_format ?? 'url' };
}

/** OpenAI's images answer from a succeeded task: a signed link per image, or where its bytes wait for the edge to inline. */
export function imagesAnswer(task: MediaTask, format: ImagesFormat, links: readonly string[]): StoredImagesReply {
  const created = Math.floor(task.createdAt.getTime() / 1000);
  if (format === 'url') return { created, data: links.map((url) => ({ url })) };
  return { created, data: task.results.map((result) => ({ stored: { objectKey: result.key, contentType: result.contentType, size: result.size } })) };
}

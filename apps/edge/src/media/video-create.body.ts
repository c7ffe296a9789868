import { GatewayError, parseOrThrow, VideoCreateRequest } from '@gateway/contracts';
import type { RouteRequest } from '../routing/route-request';

type Part = { type: 'file'; fieldname: string; file: NodeJS.ReadableStream } | { type: 'field'; fieldname: string; value: unknown };
type MultipartRequest = { isMultipart(): boolean; parts(options?: { limits?: { fileSize?: number; files?: number } }): AsyncIterableIterator<Part> };

const FLAGS = new Set(['generate_audio']);
const NUMBERS = new Set(['duration']);

/**
 * The body of POST /oaic/v1/videos: JSON, or the multipart/form-data OpenAI's SDK sends (text fields; a
 * file in input_reference is refused, naming the field: references are public HTTPS URLs here).
 */
export async function readVideoCreateBody(request: RouteRequest): Promise<VideoCreateRequest> {
  const raw = request.raw as unknown as MultipartRequest;
  if (typeof raw.isMultipart !== 'function' || !raw.isMultipart()) return parseOrThrow(VideoCreateRequest, request.body ?? {});
  const fields: Record<string, unknown> = {};
  for await (const part of raw.parts({ limits: { fileSize: 1, files: 1 } })) {
    if (part.type === 'file') {
      part.file.resume();
      throw GatewayError.invalid(`${part.fieldname} was sent as a file; give a public HTTPS image URL in ${part.fieldname} instead.`, part.fieldname);
    }
    if (typeof part.value !== 'string') continue;
    fields[part.fieldname] = FLAGS.has(part.fieldname)
      ? part.value === 'true'
      : NUMBERS.has(part.fieldname) && /^\d+$/.test(part.value)
        ? Number(part.value)
        : part.value;
  }
  return parseOrThrow(VideoCreateRequest, fields);
}

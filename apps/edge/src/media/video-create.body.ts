import { GatewayError, parseOrThrow, VideoCreateRequest } from '@gateway/contracts';
import type { IncomingMessage } from 'node:http';
import { FormCounter, parserLimits, type MultipartLimits } from '../routing/multipart-form';
import { dropRestOfBody } from '../routing/refused-body';
import type { RouteRequest } from '../routing/route-request';

type Part =
  | { type: 'file'; fieldname: string; file: NodeJS.ReadableStream }
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated?: boolean; fieldnameTruncated?: boolean };
type MultipartRequest = { isMultipart(): boolean; parts(options?: { limits?: ReturnType<typeof parserLimits> }): AsyncIterableIterator<Part> };

const FLAGS = new Set(['generate_audio']);
const NUMBERS = new Set(['duration']);

/**
 * The body of POST /oaic/v1/videos: JSON, or the multipart/form-data OpenAI's SDK sends (text fields; a
 * file in input_reference is refused, naming the field: references are public HTTPS URLs here).
 */
export async function readVideoCreateBody(request: RouteRequest, limits: MultipartLimits): Promise<VideoCreateRequest> {
  const raw = request.raw as unknown as MultipartRequest;
  if (typeof raw.isMultipart !== 'function' || !raw.isMultipart()) return parseOrThrow(VideoCreateRequest, request.body ?? {});
  try {
    return parseOrThrow(VideoCreateRequest, await readFields(raw, request.raw.raw, limits));
  } catch (error) {
    dropRestOfBody(request.raw.raw);
    throw error;
  }
}

async function readFields(raw: MultipartRequest, incoming: IncomingMessage, limits: MultipartLimits): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  const counter = new FormCounter(limits, incoming);
  for await (const part of counter.read(raw.parts({ limits: parserLimits(limits, { fileSize: 1, files: 1 }) }))) {
    counter.take(part);
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
  return fields;
}

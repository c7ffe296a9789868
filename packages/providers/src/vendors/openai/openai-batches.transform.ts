// OpenAI's own batch API as pure transforms: upload the input file (purpose batch, multipart streamed),
// create, retrieve and cancel a batch, read a file's content; and the shapes of what comes back, parsed.
import { GatewayError } from '@gateway/contracts';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { encodeMultipart } from '../../http/multipart.encoder';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { upstreamUrl } from './openai-operations';

function auth(channel: ChannelTarget): Record<string, string> {
  return channel.apiKey ? { authorization: `Bearer ${channel.apiKey}` } : {};
}

const id = (value: string) => encodeURIComponent(value);

export const UpstreamFileObject = z.looseObject({ id: z.string().min(1) });

export const UpstreamBatchObject = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['validating', 'failed', 'in_progress', 'finalizing', 'completed', 'expired', 'cancelling', 'cancelled']),
  output_file_id: z.string().nullish(),
  error_file_id: z.string().nullish(),
  request_counts: z.looseObject({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() }).nullish(),
  errors: z
    .looseObject({
      data: z
        .array(z.looseObject({ code: z.string().nullish(), message: z.string().nullish(), param: z.string().nullish(), line: z.number().int().nullish() }))
        .nullish(),
    })
    .nullish(),
});
export type UpstreamBatchObject = z.infer<typeof UpstreamBatchObject>;

/** One line of an upstream batch's output or error file. */
export const UpstreamBatchOutputLine = z.looseObject({
  id: z.string().nullish(),
  custom_id: z.string(),
  response: z
    .looseObject({
      status_code: z.number().int(),
      request_id: z.string().nullish(),
      body: z.unknown(),
    })
    .nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});
export type UpstreamBatchOutputLine = z.infer<typeof UpstreamBatchOutputLine>;

export function parseBatchApiReply<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new GatewayError('upstream_error', `The upstream answered with a ${what} of an unexpected shape.`);
  return parsed.data;
}

export const openaiBatches = {
  /** POST /files, purpose batch: the JSONL flows from `lines` into the request, never whole in memory. */
  uploadRequest(channel: ChannelTarget, filename: string, lines: Readable): UpstreamRequest {
    const form = encodeMultipart([['purpose', 'batch']], { field: 'file', filename, contentType: 'application/jsonl', data: lines });
    return {
      method: 'POST',
      url: upstreamUrl(channel.baseUrl, '/files'),
      headers: { ...auth(channel), 'content-type': form.contentType },
      body: form.body,
      stream: false,
    };
  },

  createRequest(channel: ChannelTarget, inputFileId: string, endpoint: string, metadata: Record<string, string>): UpstreamRequest {
    return {
      method: 'POST',
      url: upstreamUrl(channel.baseUrl, '/batches'),
      headers: { ...auth(channel), 'content-type': 'application/json' },
      body: JSON.stringify({ input_file_id: inputFileId, endpoint, completion_window: '24h', metadata }),
      stream: false,
    };
  },

  retrieveRequest(channel: ChannelTarget, batchId: string): UpstreamRequest {
    return { method: 'GET', url: upstreamUrl(channel.baseUrl, `/batches/${id(batchId)}`), headers: auth(channel), stream: false };
  },

  cancelRequest(channel: ChannelTarget, batchId: string): UpstreamRequest {
    return { method: 'POST', url: upstreamUrl(channel.baseUrl, `/batches/${id(batchId)}/cancel`), headers: auth(channel), stream: false };
  },

  contentRequest(channel: ChannelTarget, fileId: string): UpstreamRequest {
    return { method: 'GET', url: upstreamUrl(channel.baseUrl, `/files/${id(fileId)}/content`), headers: auth(channel), stream: false };
  },
};

import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { addUrlIssue } from '../../url-policy/url-policy.schema';
import { ResponseInputItem, ResponseToolFields } from './responses-input.schema';

type Json = Record<string, unknown>;

/** The URLs an input part hands the upstream: an image by URL (or image data URL), a file by URL. */
function checkPartUrls(part: unknown, path: PropertyKey[], ctx: z.RefinementCtx): void {
  if (part === null || typeof part !== 'object') return;
  const { type, image_url: imageUrl, file_url: fileUrl } = part as Json;
  if (type === 'input_image' && imageUrl !== undefined) {
    if (typeof imageUrl === 'string') addUrlIssue(ctx, imageUrl, [...path, 'image_url'], { data: 'image' });
    else ctx.addIssue({ code: 'custom', path: [...path, 'image_url'], message: 'expected a public HTTPS URL or an image data URL' });
  }
  if (type === 'input_file' && fileUrl !== undefined) {
    if (typeof fileUrl === 'string') addUrlIssue(ctx, fileUrl, [...path, 'file_url']);
    else ctx.addIssue({ code: 'custom', path: [...path, 'file_url'], message: 'expected a public HTTPS URL' });
  }
}

/** Input items pass on unchanged, so every URL in them (message content, tool outputs) is checked here. */
function checkInputUrls(input: unknown, ctx: z.RefinementCtx): void {
  if (!Array.isArray(input)) return;
  input.forEach((item: Json, i) => {
    for (const field of ['content', 'output'] as const) {
      const parts = item[field];
      if (Array.isArray(parts)) parts.forEach((part, j) => checkPartUrls(part, ['input', i, field, j], ctx));
    }
  });
}

/** Remote MCP tools name a server the upstream connects to. */
function checkToolUrls(tools: unknown, ctx: z.RefinementCtx): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool: unknown, i) => {
    const serverUrl = tool !== null && typeof tool === 'object' ? (tool as Json).server_url : undefined;
    if (typeof serverUrl === 'string') addUrlIssue(ctx, serverUrl, ['tools', i, 'server_url']);
  });
}

/** POST /oaic/v1/responses (spec 4.3). `input` is a string, or input items passed on unchanged (the types read typed, their URLs checked). */
export const ResponseCreateRequest = z
  .looseObject({
    model: RequestModelName,
    input: z.union([z.string(), z.array(ResponseInputItem)], { error: 'expected a string or an array of input items' }),
    ...ResponseToolFields,
    instructions: z.string().nullish(),
    max_output_tokens: z.number().int().positive().nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    stream: z.boolean().nullish(),
    /** Continues a stored response (of this tenant); the upstream that answered it is asked under its own id. */
    previous_response_id: z.string().nullish(),
    user: z.string().optional(),
  })
  .superRefine((body, ctx) => {
    checkInputUrls(body.input, ctx);
    checkToolUrls(body.tools, ctx);
  });
export type ResponseCreateRequest = z.infer<typeof ResponseCreateRequest>;

/** GET /oaic/v1/responses/{response_id} path parameter. */
export const ResponseIdParam = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'not a response id');

// Request bodies read as Bedrock reads them: JSON held to a schema, every failure a ValidationException
// naming the field at fault.
import { z } from 'zod';
import { BedrockError } from './bedrock.errors';

/** `1 validation error detected: Value at 'messages.0.role' failed to satisfy constraint: …`, as AWS words it. */
export function validationError(error: z.ZodError): BedrockError {
  const issues = error.issues;
  const described = issues
    .slice(0, 3)
    .map((issue) => `Value at '${issue.path.join('.') || 'body'}' failed to satisfy constraint: ${issue.message}`)
    .join('; ');
  return new BedrockError(400, 'ValidationException', `${issues.length} validation error${issues.length === 1 ? '' : 's'} detected: ${described}`);
}

/** The body's JSON held to `schema`; anything else is the ValidationException Bedrock answers. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.isBuffer(body) ? body.toString('utf8') : '');
  } catch {
    throw new BedrockError(400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

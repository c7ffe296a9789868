import { z } from 'zod';

const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,/i;
const NOT_BASE64 = /[^A-Za-z0-9+/_-]/;
const LOOKS_LIKE_BASE64 = /^[A-Za-z0-9+/]{16,}={0,2}$/;

/** Base64 (standard or URL-safe alphabet, up to two padding characters), checked in one linear scan: a pattern with backtracking overflows the regex stack on a body of megabytes. */
function isBase64(body: string): boolean {
  const end = body.endsWith('==') ? body.length - 2 : body.endsWith('=') ? body.length - 1 : body.length;
  return end > 0 && !NOT_BASE64.test(end === body.length ? body : body.slice(0, end));
}

/** Why an image URL cannot reach the upstream, or null when it can (spec 2.3). */
export function imageUrlProblem(url: string): string | null {
  if (url.startsWith('https://')) {
    try {
      return new URL(url).hostname ? null : 'an HTTPS URL needs a host';
    } catch {
      return 'not a valid HTTPS URL';
    }
  }
  if (url.startsWith('data:')) {
    const head = DATA_URL.exec(url);
    if (!head) return 'a data URL must have the form data:image/<type>;base64,<data>';
    return isBase64(url.slice(head[0].length)) ? null : 'the data URL does not carry valid base64 data';
  }
  if (url.startsWith('http://')) return 'plain http:// URLs are not accepted; use a public HTTPS URL';
  if (/^(file:|\/|\.{1,2}\/|~|[A-Za-z]:[\\/])/.test(url)) {
    return 'local file paths are not fetchable by the upstream; use a public HTTPS URL or a data URL';
  }
  if (LOOKS_LIKE_BASE64.test(url)) return 'bare base64 is not accepted; prefix it as data:image/<type>;base64,<data>';
  return 'expected a public HTTPS URL or a data URL of the form data:image/<type>;base64,<data>';
}

type Issue = { path: (string | number)[]; message: string };

function blockProblem(block: Record<string, unknown>): Issue | null {
  const type = block.type;
  if (typeof type !== 'string') return { path: ['type'], message: "a content block needs a string 'type' (text or image_url)" };
  if (type === 'text') return typeof block.text === 'string' ? null : { path: ['text'], message: 'a text block needs a string text' };
  if (type !== 'image_url') {
    return { path: ['type'], message: `'${type}' blocks do not exist on this route: only text and image_url (no video, file or audio blocks)` };
  }
  const image = block.image_url as Record<string, unknown> | undefined;
  if (!image || typeof image !== 'object' || typeof image.url !== 'string') {
    return { path: ['image_url', 'url'], message: 'an image_url block needs image_url.url' };
  }
  const problem = imageUrlProblem(image.url);
  return problem ? { path: ['image_url', 'url'], message: problem } : null;
}

/**
 * A chat content block: text, or image_url with a public HTTPS or data URL. Checked by hand so every
 * problem is reported at the block itself (`messages[0].content[1].image_url.url`), not as a union miss.
 */
export const ContentBlock = z
  .looseObject({ type: z.unknown() })
  .meta({ description: 'text block {type:"text", text} or image block {type:"image_url", image_url:{url}}; url is public HTTPS or data:image/<type>;base64,<data>' })
  .superRefine((block, ctx) => {
    const problem = blockProblem(block);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type ContentBlock = z.infer<typeof ContentBlock>;

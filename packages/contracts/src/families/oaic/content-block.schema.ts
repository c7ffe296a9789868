import { z } from 'zod';
import { urlProblem } from '../../url-policy/url-policy';

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
  const problem = urlProblem(image.url, { data: 'image' });
  return problem ? { path: ['image_url', 'url'], message: problem } : null;
}

/**
 * A chat content block: text, or image_url with a public HTTPS or data URL. Checked by hand so every
 * problem is reported at the block itself (`messages[0].content[1].image_url.url`), not as a union miss.
 */
export const ContentBlock = z
  .looseObject({ type: z.unknown() })
  .meta({
    description: 'text block {type:"text", text} or image block {type:"image_url", image_url:{url}}; url is public HTTPS or data:image/<type>;base64,<data>',
  })
  .superRefine((block, ctx) => {
    const problem = blockProblem(block);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type ContentBlock = z.infer<typeof ContentBlock>;

// The URL policy on what is actually sent: a request translated for another protocol carries the
// client's URLs into that protocol's fields (an oaic image_url becomes a Gemini fileUri), so the
// translated request is judged again just before it leaves, whatever checked the body on its way in.
import { GatewayError, urlProblem } from '@gateway/contracts';
import type { ChatIrRequest } from './chat-ir.schema';

/** Throws invalid_request naming the client's field when an image URL of the request is refused by the URL policy. */
export function assertIrUrls(ir: ChatIrRequest): void {
  for (const message of ir.messages) {
    for (const part of message.parts) {
      if (part.type !== 'image' || part.url === null) continue;
      const problem = urlProblem(part.url);
      if (problem) throw GatewayError.invalid(`Invalid value for '${part.param}': ${problem}`, part.param);
    }
  }
}

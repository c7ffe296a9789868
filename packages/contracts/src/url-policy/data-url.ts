// Image data URLs: the bytes travel with the request, so there is no host to judge, only the form.

const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,/i;
const NOT_BASE64 = /[^A-Za-z0-9+/_-]/;

/** Base64 (standard or URL-safe alphabet, up to two padding characters), checked in one linear scan: a pattern with backtracking overflows the regex stack on a body of megabytes. */
function isBase64(body: string): boolean {
  const end = body.endsWith('==') ? body.length - 2 : body.endsWith('=') ? body.length - 1 : body.length;
  return end > 0 && !NOT_BASE64.test(end === body.length ? body : body.slice(0, end));
}

/** Why a data URL is not an image data URL of the form data:image/<type>;base64,<data>, or null when it is. */
export function imageDataUrlProblem(url: string): string | null {
  const head = DATA_URL.exec(url);
  if (!head) return 'a data URL must have the form data:image/<type>;base64,<data>';
  return isBase64(url.slice(head[0].length)) ? null : 'the data URL does not carry valid base64 data';
}

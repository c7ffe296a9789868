// Vertex's error dialects: Google's {error:{code, message, status}} for the platform (auth, paths, Gemini),
// Anthropic's for what Claude's own API refuses, and OAuth's {error, error_description} at the token endpoint.
import { renderAnthropicError } from '../anthropic/anthropic.errors';
import { renderGeminiError } from '../gemini/gemini.errors';

export const UNAUTHENTICATED_MESSAGE =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export function renderVertexError(status: number, message: string): unknown {
  return renderGeminiError(status, message);
}

export function renderPublisherError(publisher: string | undefined, status: number, message: string): unknown {
  return publisher === 'anthropic' ? renderAnthropicError(status, message) : renderGeminiError(status, message);
}

export function renderTokenError(status: number, message: string): unknown {
  const error = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'internal_failure' : 'invalid_request';
  return { error, error_description: message };
}

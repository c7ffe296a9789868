// Azure OpenAI's error dialect: OpenAI's {error:{message, type, param, code}} with Azure's codes and, for
// the content filter, the `innererror` that names what was filtered.

export function renderAzureError(status: number, message: string, param: string | null, code: string | null): unknown {
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param, code: code ?? String(status) } };
}

/** The refusal Azure gives when a prompt trips the content filter (HTTP 400). */
export function contentFilterError(filtered: Record<string, unknown>): unknown {
  return {
    error: {
      message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.",
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: filtered },
    },
  };
}

export const AZURE_NOT_FOUND = { error: { code: '404', message: 'Resource not found' } };

export const AZURE_UNAUTHORIZED = {
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
};

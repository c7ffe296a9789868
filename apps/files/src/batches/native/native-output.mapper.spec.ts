import { lineResultId } from '../batch-line.runner';
import { mapOutputLine, parseOutputLine, usageOf } from './native-output.mapper';

const upstreamLine = (customId: string, body: unknown, status = 200) =>
  JSON.stringify({ id: 'batch_req_up', custom_id: customId, response: { status_code: status, request_id: 'req_up1', body }, error: null });

describe('native batch output mapping', () => {
  it('keeps the custom_id and the upstream request id, gives the line its own id and names the catalog model', () => {
    const line = parseOutputLine(
      upstreamLine('c-1', { object: 'chat.completion', model: 'sandbox-gpt@latency=20', usage: { prompt_tokens: 7, completion_tokens: 3 } }),
    )!;
    const mapped = mapOutputLine('batch_x', 4, line, 'sandbox-gpt-batch');
    expect(mapped.status).toBe(200);
    expect(mapped.result).toEqual({
      id: lineResultId('batch_x', 4),
      custom_id: 'c-1',
      response: {
        status_code: 200,
        request_id: 'req_up1',
        body: { object: 'chat.completion', model: 'sandbox-gpt-batch', usage: { prompt_tokens: 7, completion_tokens: 3 } },
      },
      error: null,
    });
    expect(mapped.usage).toEqual({ promptTokens: 7, completionTokens: 3 });
  });

  it('keeps an error body as it is and a line the upstream never ran as an error without response', () => {
    const refused = mapOutputLine('batch_x', 1, parseOutputLine(upstreamLine('c-2', { error: { message: 'bad' } }, 400))!, 'm');
    expect(refused.status).toBe(400);
    expect(refused.result.response!.body).toEqual({ error: { message: 'bad' } });
    const expired = mapOutputLine(
      'batch_x',
      2,
      parseOutputLine(JSON.stringify({ custom_id: 'c-3', response: null, error: { code: 'batch_expired', message: 'late' } }))!,
      'm',
    );
    expect(expired.status).toBeNull();
    expect(expired.result).toMatchObject({ custom_id: 'c-3', response: null, error: { code: 'batch_expired', message: 'late' } });
  });

  it('reads usage as chat, responses and embeddings report it, cached tokens included', () => {
    expect(usageOf({ usage: { prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 4 } } })).toEqual({
      promptTokens: 10,
      completionTokens: 2,
      cachedTokens: 4,
    });
    expect(usageOf({ usage: { input_tokens: 5, output_tokens: 6, input_tokens_details: { cached_tokens: 0 } } })).toEqual({
      promptTokens: 5,
      completionTokens: 6,
    });
    expect(usageOf({ usage: { prompt_tokens: 9, total_tokens: 9 } })).toEqual({ promptTokens: 9, completionTokens: 0 });
    expect(usageOf({ object: 'moderation' })).toEqual({ promptTokens: 0, completionTokens: 0 });
  });

  it('skips what is not an output line', () => {
    expect(parseOutputLine('not json')).toBeNull();
    expect(parseOutputLine(JSON.stringify({ response: null }))).toBeNull();
  });
});

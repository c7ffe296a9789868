import { ChatCompletionRequest, CompletionRequest, EmbeddingRequest } from './oaic';
import { MAX_MODEL_NAME_LENGTH } from './model-name.schema';
import { MessagesRequest } from './msgc';

const messages = [{ role: 'user', content: 'hi' }];

describe('the model named in a request body', () => {
  it.each([
    ['chat completions', (model: string) => ChatCompletionRequest.safeParse({ model, messages })],
    ['completions', (model: string) => CompletionRequest.safeParse({ model, prompt: 'hi' })],
    ['embeddings', (model: string) => EmbeddingRequest.safeParse({ model, input: 'hi' })],
    ['msgc messages', (model: string) => MessagesRequest.safeParse({ model, max_tokens: 10, messages })],
  ])('%s: a name longer than the bound is refused at `model`, so no answer echoes it', (_route, parse) => {
    const refused = parse('m'.repeat(600_000));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['model']);
    expect(parse('m'.repeat(MAX_MODEL_NAME_LENGTH)).success).toBe(true);
  });
});

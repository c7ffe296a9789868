import { Readable } from 'node:stream';
import { validateBatchInput, type ValidLine } from './batch-input.validator';

const chatLine = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, ...extra });

async function validate(lines: string[], pageSize = 500) {
  const accepted: ValidLine[][] = [];
  const result = await validateBatchInput(Readable.from([lines.join('\n') + '\n']), '/v1/chat/completions', async (page) => void accepted.push(page), pageSize);
  return { ...result, accepted };
}

describe('validateBatchInput', () => {
  it('accepts good lines in pages, numbered in order, skipping blank lines', async () => {
    const { errors, total, accepted } = await validate([chatLine('a'), '', chatLine('b'), chatLine('c')], 2);
    expect(errors).toEqual([]);
    expect(total).toBe(3);
    expect(accepted.map((page) => page.map((l) => [l.line, l.customId]))).toEqual([
      [
        [1, 'a'],
        [2, 'b'],
      ],
      [[3, 'c']],
    ]);
  });

  it('names the line of bad JSON, a duplicate custom_id and a wrong url, and accepts nothing', async () => {
    const lines = [1, 2, 3, 4, 5, 6].map((n) => chatLine(`r${n}`));
    lines.push('{"custom_id": "r7", oops');
    lines.push(chatLine('r1'));
    lines.push(chatLine('r9', { url: '/v1/embeddings' }));
    lines.push(chatLine('r10', { method: 'GET' }));
    lines.push(JSON.stringify({ custom_id: 'r11', method: 'POST', url: '/v1/chat/completions', body: { model: 'm' } }));
    const { errors, accepted } = await validate(lines);
    expect(accepted).toEqual([]);
    expect(errors.map((e) => [e.line, e.code, e.param])).toEqual([
      [7, 'invalid_json_line', null],
      [8, 'duplicate_custom_id', 'custom_id'],
      [9, 'mismatched_url', 'url'],
      [10, 'invalid_request', 'method'],
      [11, 'invalid_request', 'body.messages'],
    ]);
    expect(errors[0]!.message).toContain('Line 7');
  });

  it('tells the models the lines name: one for a single-model file, two (of any more) for a mixed one', async () => {
    const single = await validate([chatLine('a'), chatLine('b')]);
    expect(single.models).toEqual(['m']);
    const other = (id: string, model: string) =>
      JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: 'hi' }] } });
    const mixed = await validate([chatLine('a'), other('b', 'n'), other('c', 'o')]);
    expect(mixed.models).toEqual(['m', 'n']);
  });

  it('refuses streamed bodies and an empty file', async () => {
    const streamed = await validate([chatLine('s', { body: { model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true } })]);
    expect(streamed.errors[0]).toMatchObject({ line: 1, param: 'body.stream' });
    const empty = await validate(['']);
    expect(empty.errors[0]).toMatchObject({ code: 'empty_file' });
  });

  it('lists at most 100 errors and counts the rest', async () => {
    const { errors } = await validate(Array.from({ length: 150 }, () => 'not json'));
    expect(errors).toHaveLength(101);
    expect(errors[100]).toMatchObject({ code: 'too_many_errors', message: '50 more lines have errors.' });
  });

  it('refuses, with their line numbers, a line nested deeper than the live routes allow and a custom_id with a lone surrogate', async () => {
    const deep = JSON.stringify({
      custom_id: 'deep',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'm', messages: [{ role: 'user', content: 'x' }] },
    }).replace('"content":"x"', `"content":"x","extra":${'['.repeat(5000)}${']'.repeat(5000)}`);
    const lone = JSON.stringify({
      custom_id: 'a\ud800b',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'm', messages: [{ role: 'user', content: 'x' }] },
    });
    const trail = JSON.stringify({
      custom_id: 'z\udfff',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'm', messages: [{ role: 'user', content: 'x' }] },
    });
    const { errors, accepted } = await validate([chatLine('ok'), deep, lone, chatLine('paired \ud83d\ude00'), trail]);
    expect(accepted).toEqual([]);
    expect(errors.map((e) => [e.line, e.code, e.param])).toEqual([
      [2, 'invalid_request', 'body'],
      [3, 'invalid_request', 'custom_id'],
      [5, 'invalid_request', 'custom_id'],
    ]);
    expect(errors[0]!.message).toBe('Line 2: this line nests objects or arrays deeper than 64 levels.');
    expect(errors[1]!.message).toContain('lone UTF-16 surrogate');
  });

  it('accepts a line nested exactly as deep as the live routes allow', async () => {
    const nested = `${'['.repeat(60)}${']'.repeat(60)}`;
    const line = chatLine('edge').replace('"content":"hi"', `"content":"hi","extra":${nested}`);
    const { errors } = await validate([line]);
    expect(errors).toEqual([]);
  });
});

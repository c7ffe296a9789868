import { Readable } from 'node:stream';
import { parseSse } from './sse-stream.parser';

/** The SSE text cut into pieces at awkward places, as a network would. */
function split(text: string, size: number): Readable {
  const pieces: Buffer[] = [];
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces);
}

describe('SSE parsing', () => {
  it('yields events across arbitrary byte boundaries and stops at [DONE]', async () => {
    const text = 'event: a\ndata: {"x":1}\n\n: comment\n\ndata: héllo\n\ndata: [DONE]\n\ndata: after\n\n';
    const events = [];
    for await (const event of parseSse(split(text, 3))) events.push(event);
    expect(events).toEqual([
      { event: 'a', data: '{"x":1}' },
      { event: undefined, data: 'héllo' },
    ]);
  });
});

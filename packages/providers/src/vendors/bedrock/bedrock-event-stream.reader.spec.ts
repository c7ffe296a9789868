// The event-stream reader over frames made by the SDK's own codec, cut at arbitrary byte boundaries.
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { Readable } from 'node:stream';
import type { SseMessage } from '../../ir/chat-ir.schema';
import { readBedrockEventStream, unwrapInvokeChunk } from './bedrock-event-stream.reader';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const text = (value: string) => ({ type: 'string' as const, value });

function frame(messageType: 'event' | 'exception', name: string, payload: unknown): Uint8Array {
  const kind: MessageHeaders = messageType === 'event' ? { ':event-type': text(name) } : { ':exception-type': text(name) };
  return codec.encode({
    headers: { ...kind, ':message-type': text(messageType), ':content-type': text('application/json') },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** The frames as one byte run, handed over in chunks of `size` bytes so frames straddle chunks. */
function chunked(frames: Uint8Array[], size: number): Readable {
  const bytes = Buffer.concat(frames);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

async function read(body: Readable): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readBedrockEventStream(body)) messages.push(message);
  return messages;
}

describe('readBedrockEventStream', () => {
  const frames = [
    frame('event', 'messageStart', { role: 'assistant' }),
    frame('event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hé, 世界' } }),
    frame('event', 'messageStop', { stopReason: 'end_turn' }),
  ];

  it.each([1, 7, 64, 4096])('hands on each event whole, read in chunks of %i bytes', async (size) => {
    expect(await read(chunked(frames, size))).toEqual([
      { event: 'messageStart', data: '{"role":"assistant"}' },
      { event: 'contentBlockDelta', data: JSON.stringify({ contentBlockIndex: 0, delta: { text: 'Hé, 世界' } }) },
      { event: 'messageStop', data: '{"stopReason":"end_turn"}' },
    ]);
  });

  it('throws the exception a stream ends with, after the events before it', async () => {
    const seen: SseMessage[] = [];
    const failing = chunked([frames[0]!, frame('exception', 'throttlingException', { message: 'Too many tokens' })], 5);
    const error = await (async () => {
      for await (const message of readBedrockEventStream(failing)) seen.push(message);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ code: 'rate_limited', upstreamStatus: 429, message: expect.stringContaining('Too many tokens') });
  });

  it('refuses a frame whose checksum does not match', async () => {
    const broken = Buffer.from(frames[0]!);
    broken[broken.length - 6] ^= 0xff;
    await expect(read(Readable.from([broken]))).rejects.toThrow(/checksum/i);
  });
});

describe('unwrapInvokeChunk', () => {
  it("hands on the model's own event, named by its type", () => {
    const inner = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } };
    const chunk = { event: 'chunk', data: JSON.stringify({ bytes: Buffer.from(JSON.stringify(inner)).toString('base64') }) };
    expect(unwrapInvokeChunk(chunk)).toEqual({ event: 'content_block_delta', data: JSON.stringify(inner) });
    expect(() => unwrapInvokeChunk({ event: 'chunk', data: '{"bytes":"bm90IGpzb24="}' })).toThrow(expect.objectContaining({ code: 'upstream_error' }));
  });
});

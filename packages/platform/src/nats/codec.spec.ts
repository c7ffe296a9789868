import fc from 'fast-check';
import { decodeJson, encodeJson, encodeReply, replyDataBytes } from './codec';

describe('a success reply sliced for its data bytes', () => {
  it('gives exactly the JSON of the data, whatever the data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (data) => {
        const sliced = replyDataBytes(encodeReply({ ok: true, data }));
        expect(sliced).not.toBeNull();
        expect(decodeJson(sliced!)).toEqual(decodeJson(encodeJson(data)));
      }),
    );
  });

  it('gives null for an error reply and for bytes not written by encodeReply', () => {
    expect(replyDataBytes(encodeReply({ ok: false, error: { code: 'internal', message: 'x' } }))).toBeNull();
    expect(replyDataBytes(encodeJson({ data: 1, ok: true }))).toBeNull();
    expect(replyDataBytes(encodeJson({ ok: true }))).toBeNull();
    expect(replyDataBytes(new Uint8Array(0))).toBeNull();
  });
});

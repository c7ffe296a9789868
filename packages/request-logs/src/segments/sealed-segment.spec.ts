import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { LogKeyRing, RequestLogKeyError } from './log-key-ring';
import { openSegment, sealSegment, segmentKeyId } from './sealed-segment';

const keyOf = () => randomBytes(32).toString('base64');
const k1 = keyOf();
const k2 = keyOf();

function refusal(act: () => unknown): RequestLogKeyError {
  try {
    act();
  } catch (error) {
    if (error instanceof RequestLogKeyError) return error;
    throw error;
  }
  throw new Error('expected a RequestLogKeyError');
}

describe('sealed request-log segments', () => {
  it('open to exactly what was sealed, for any content', () => {
    const ring = LogKeyRing.parse(`k1:${k1}`);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        const content = Buffer.from(bytes);
        expect(openSegment(sealSegment(content, ring), ring).equals(content)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('hold neither the plain text nor its compressed form in the clear', () => {
    const ring = LogKeyRing.parse(`k1:${k1}`);
    const content = Buffer.from(JSON.stringify({ prompt: 'the secret plan is to meet at noon '.repeat(20) }));
    const sealed = sealSegment(content, ring);
    expect(sealed.includes(Buffer.from('secret plan'))).toBe(false);
    expect(segmentKeyId(sealed)).toBe('k1');
  });

  it('open after the key rotates while the old key is still listed', () => {
    const sealed = sealSegment(Buffer.from('before the rotation'), LogKeyRing.parse(`k1:${k1}`));
    const rotated = LogKeyRing.parse(`k2:${k2},k1:${k1}`);
    expect(rotated.currentId).toBe('k2');
    expect(openSegment(sealed, rotated).toString()).toBe('before the rotation');
    expect(segmentKeyId(sealSegment(Buffer.from('after'), rotated))).toBe('k2');
  });

  it('say which key is missing when the ring does not hold it', () => {
    const sealed = sealSegment(Buffer.from('x'), LogKeyRing.parse(`k1:${k1}`));
    expect(refusal(() => openSegment(sealed, LogKeyRing.parse(`k2:${k2}`))).message).toBe(
      "the segment is sealed under key 'k1', which LOG_ENCRYPTION_KEY does not hold (it holds 'k2')",
    );
  });

  it('refuse a wrong key under the same id, a changed byte and a relabelled key id, saying why', () => {
    const sealed = sealSegment(Buffer.from('the body'), LogKeyRing.parse(`k1:${k1}`));
    expect(refusal(() => openSegment(sealed, LogKeyRing.parse(`k1:${k2}`))).message).toMatch(
      /does not open under LOG_ENCRYPTION_KEY's key 'k1': the key is not the one it was sealed with/,
    );
    const changed = Buffer.from(sealed);
    changed[changed.length - 1]! ^= 1;
    expect(() => openSegment(changed, LogKeyRing.parse(`k1:${k1}`))).toThrow(RequestLogKeyError);
    const relabelled = Buffer.from(sealed);
    relabelled.write('k2', 6, 'utf8');
    expect(() => openSegment(relabelled, LogKeyRing.parse(`k1:${k1},k2:${k1}`))).toThrow(RequestLogKeyError);
  });

  it.each([
    ['', 'holds no key'],
    ['k1', 'expected "<id>:<32 bytes in base64>"'],
    [`k1:${randomBytes(16).toString('base64')}`, "key 'k1': decodes to 16 bytes"],
    [`k1:${k1},k1:${k2}`, "the key id 'k1' appears twice"],
    [`bad id:${k1}`, 'a key id is 1 to 32 letters'],
  ])('refuse the setting %j', (setting, message) => {
    expect(refusal(() => LogKeyRing.parse(setting)).message).toContain(message);
  });
});

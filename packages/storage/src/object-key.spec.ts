import { isObjectKey, keySegmentOf, objectKey } from './object-key';

describe('objectKey', () => {
  it('joins valid segments', () => {
    expect(objectKey('speech', 'tenant-1', '0b6c.f_9')).toBe('speech/tenant-1/0b6c.f_9');
  });

  it.each(['..', '.', '', 'a/b', '../speech-sibling-probe', 'a b', 'é', 'x\u0000', 'C:\\temp'])('refuses the segment %j', (bad) => {
    expect(() => objectKey('speech', bad)).toThrow('object key segment');
  });

  it('refuses no segments at all', () => {
    expect(() => objectKey()).toThrow();
  });
});

describe('isObjectKey', () => {
  it('accepts what objectKey builds and nothing that climbs', () => {
    expect(isObjectKey('uploads/abc/clip.wav')).toBe(true);
    expect(isObjectKey('speech/../x')).toBe(false);
    expect(isObjectKey('/abs')).toBe(false);
    expect(isObjectKey('a//b')).toBe(false);
  });
});

describe('keySegmentOf', () => {
  it('sanitises client text into one segment', () => {
    expect(keySegmentOf('my clip (1).wav', 'audio')).toBe('my_clip__1_.wav');
    expect(keySegmentOf('../../etc/passwd', 'audio')).toBe('.._.._etc_passwd');
    expect(isObjectKey(objectKey('uploads', 'id', keySegmentOf('../../etc/passwd', 'audio')))).toBe(true);
  });

  it.each(['', '.', '..', '....'])('falls back for %j', (text) => {
    expect(keySegmentOf(text, 'audio')).toBe('audio');
  });

  it('caps the length', () => {
    expect(keySegmentOf('a'.repeat(500), 'audio')).toHaveLength(100);
  });
});

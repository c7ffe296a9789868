import { STREAM_KINDS } from '@gateway/contracts';
import { mergeStreamFrames, type OutgoingFrame } from './frame-merge';

const text = (data: Uint8Array) => Buffer.from(data).toString();
const data = (subject: string, value: string): OutgoingFrame => ({ subject, data: Buffer.from(value), kind: STREAM_KINDS.data });
const show = (frames: OutgoingFrame[]) => frames.map((f) => `${f.subject} ${f.kind ?? 'reply'} ${text(f.data)}`);

describe('mergeStreamFrames', () => {
  it("joins one stream's data frames of a turn into one message, in order", () => {
    const frames = [data('a', 'data: 1\n\n'), data('a', 'data: 2\n\n'), data('a', 'data: 3\n\n')];
    expect(show(mergeStreamFrames(frames, 1024))).toEqual(['a data data: 1\n\ndata: 2\n\ndata: 3\n\n']);
  });

  it('keeps streams apart and leaves replies as they are', () => {
    const reply: OutgoingFrame = { subject: 'r', data: Buffer.from('{"ok":true}') };
    const frames = [data('a', '1'), data('b', 'x'), reply, data('a', '2'), data('b', 'y')];
    expect(show(mergeStreamFrames(frames, 1024))).toEqual(['a data 12', 'b data xy', 'r reply {"ok":true}']);
  });

  it('closes the open message at a frame of another kind, so the end follows every data byte', () => {
    const end: OutgoingFrame = { subject: 'a', data: new Uint8Array(0), kind: STREAM_KINDS.end };
    const frames = [data('a', '1'), data('a', '2'), end, data('a', '3')];
    expect(show(mergeStreamFrames(frames, 1024))).toEqual(['a data 12', 'a end ', 'a data 3']);
  });

  it('starts a new message when the joined bytes would pass the limit', () => {
    const frames = [data('a', '1234'), data('a', '5678'), data('a', '9')];
    expect(show(mergeStreamFrames(frames, 8))).toEqual(['a data 12345678', 'a data 9']);
  });

  it('does not change the frames it was given', () => {
    const frames = [data('a', '1'), data('a', '2')];
    mergeStreamFrames(frames, 1024);
    expect(show(frames)).toEqual(['a data 1', 'a data 2']);
  });
});

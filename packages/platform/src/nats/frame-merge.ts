import { STREAM_KINDS, type ReplyNote } from '@gateway/contracts';

/** A message the transport writes: a reply, or one frame of a streamed reply. */
export interface OutgoingFrame {
  subject: string;
  data: Uint8Array;
  kind?: string;
  /** How the request was served (a reply or a stream's end; a stream's first frame when its cache outcome is known). */
  note?: ReplyNote;
  /** The request's payload (a unary reply only): names the tenant and request of a reply that must be parked. */
  payload?: unknown;
}

/**
 * The data frames one stream produced in one event-loop turn (an upstream read that held several
 * events) become one message of their bytes joined, up to `maxBytes`: the caller writes them to its
 * client together anyway, and each message costs a header, a server hop and a wake-up. A frame of
 * any other kind closes the stream's open message, so every stream's order holds.
 */
export function mergeStreamFrames(frames: OutgoingFrame[], maxBytes: number): OutgoingFrame[] {
  if (frames.length < 2) return frames;
  const out: OutgoingFrame[] = [];
  const open = new Map<string, { frame: OutgoingFrame; parts: Uint8Array[]; bytes: number }>();
  const joined: Array<{ frame: OutgoingFrame; parts: Uint8Array[]; bytes: number }> = [];
  for (const frame of frames) {
    if (frame.kind !== STREAM_KINDS.data) {
      open.delete(frame.subject);
      out.push(frame);
      continue;
    }
    const pending = open.get(frame.subject);
    if (pending && pending.bytes + frame.data.length <= maxBytes) {
      if (pending.parts.length === 1) joined.push(pending);
      pending.parts.push(frame.data);
      pending.bytes += frame.data.length;
      continue;
    }
    const copy = { ...frame };
    out.push(copy);
    open.set(frame.subject, { frame: copy, parts: [frame.data], bytes: frame.data.length });
  }
  for (const { frame, parts, bytes } of joined) frame.data = Buffer.concat(parts, bytes);
  return out;
}

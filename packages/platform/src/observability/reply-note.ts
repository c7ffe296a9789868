/**
 * How a service served a request (model, channel, tokens), collected while its handler runs and sent
 * back with the reply in a header, so the caller's access line names them. A service notes what it
 * knows with `noteReply`; outside a handler it is a no-op.
 */
import { NATS_HEADERS, ReplyNote } from '@gateway/contracts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MsgHdrs } from 'nats';

const notes = new AsyncLocalStorage<ReplyNote>();

/** Runs a handler with an empty note to fill; the note is read when its reply is written. */
export function withReplyNote<T>(note: ReplyNote, run: () => T): T {
  return notes.run(note, run);
}

export function noteReply(fields: ReplyNote): void {
  const note = notes.getStore();
  if (note) Object.assign(note, fields);
}

export function hasNote(note: ReplyNote | undefined): note is ReplyNote {
  if (!note) return false;
  for (const _ in note) return true;
  return false;
}

/** A note as a reply header carries it. */
export function encodeNote(note: ReplyNote): string {
  return JSON.stringify(note);
}

/** The note a reply carries, if any; a malformed one is ignored (it only feeds a log line). */
export function noteOf(headers: MsgHdrs | undefined): ReplyNote | undefined {
  const text = headers?.get(NATS_HEADERS.note);
  if (!text) return undefined;
  try {
    const parsed = ReplyNote.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

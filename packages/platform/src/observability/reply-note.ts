/**
 * How a service served a request (model, channel, tokens), sent back with the reply in a header so the
 * caller's access line names them. The transport gives each request an empty note (`RpcContext.note`),
 * the handler carries it to where the facts are known, and the transport reads it as the reply leaves.
 */
import { NATS_HEADERS, ReplyNote } from '@gateway/contracts';
import type { MsgHdrs } from 'nats';

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

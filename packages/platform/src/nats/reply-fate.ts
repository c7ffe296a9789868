import type { ReplyNote } from '@gateway/contracts';

const fates = new WeakMap<ReplyNote, () => boolean>();

/** The transport names, by the request's reply note, how to tell whether its reply is likely lost. */
export function watchReplyFate(note: ReplyNote, lost: () => boolean): void {
  fates.set(note, lost);
}

/**
 * True when the reply that goes with `note` will most likely not reach its caller: the link to the server
 * dropped after the request came in, and a caller whose link dropped with it has answered 503 already.
 */
export function replyLostFor(note: ReplyNote | undefined): boolean {
  return note !== undefined && (fates.get(note)?.() ?? false);
}

import type { StreamFrames } from './stream-relay';

/**
 * A chat stream's frames rewritten for another oaic route (completions or responses answered as chat);
 * `settle` runs before each write, to store a response ahead of its last event.
 */
export function rewrittenFrames(chat: StreamFrames, rewrite: (text: string) => string, settle?: () => Promise<void>): StreamFrames {
  const write = async (text: string | Promise<string>): Promise<string> => {
    const chatText = await text;
    if (chatText === '') return '';
    const out = rewrite(chatText);
    await settle?.();
    return out;
  };
  return { push: (event) => write(chat.push(event)), end: () => write(chat.end()) };
}

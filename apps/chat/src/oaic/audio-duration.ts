/**
 * How long an uploaded audio file plays, for per-second prices. A WAV file says so in its header
 * (bytes of sample data over bytes per second); other containers are bounded from their size at the
 * lowest bit rate speech is coded at, which is never less than their real length.
 */

/** 8 kbit/s: below every speech codec setting transcription services accept, so size ÷ this ≥ duration. */
const LOWEST_BYTES_PER_SECOND = 1000;

/** The duration a RIFF/WAVE header gives (its `data` chunk over the `fmt ` byte rate), or null when `head` is not one. */
export function wavSeconds(head: Buffer, fileSize: number): number | null {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') return null;
  let byteRate: number | null = null;
  for (let offset = 12; offset + 8 <= head.length;) {
    const id = head.toString('ascii', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= head.length) byteRate = head.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (!byteRate) return null;
      // A streamed WAV may say 0 or 0xFFFFFFFF here: the rest of the file is the data then.
      const declared = size > 0 && size !== 0xffffffff ? size : fileSize - (offset + 8);
      return Math.min(declared, Math.max(0, fileSize - (offset + 8))) / byteRate;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}

/** Seconds the file plays at most: exact for WAV, a size bound otherwise. */
export function maxAudioSeconds(head: Buffer, fileSize: number): number {
  return wavSeconds(head, fileSize) ?? fileSize / LOWEST_BYTES_PER_SECOND;
}

/** What the upstream says it metered, from an OpenAI-style transcription body. */
export function reportedAudioUsage(body: unknown): { seconds?: number; inputTokens?: number; outputTokens?: number } | null {
  if (!body || typeof body !== 'object') return null;
  const { usage, duration } = body as { usage?: Record<string, unknown>; duration?: unknown };
  if (usage?.type === 'duration' && typeof usage.seconds === 'number') return { seconds: usage.seconds };
  if (usage?.type === 'tokens' && typeof usage.input_tokens === 'number') {
    return { inputTokens: usage.input_tokens, outputTokens: typeof usage.output_tokens === 'number' ? usage.output_tokens : 0 };
  }
  if (typeof duration === 'number') return { seconds: duration };
  return null;
}

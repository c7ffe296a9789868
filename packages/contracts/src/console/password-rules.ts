/**
 * Password rules after NIST SP 800-63B: length alone (15 to 128 characters, counted in code points after
 * NFKC normalization), no composition rules, and a refusal of passwords guessed first: the account's own
 * email, one repeated character, or a run of a keyboard or alphabet sequence.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiopasdfghjklzxcvbnm', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p'];

export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

function isSequenceRun(text: string): boolean {
  return SEQUENCES.some((sequence) => {
    const twice = sequence + sequence;
    return twice.includes(text) || [...twice].reverse().join('').includes(text);
  });
}

/** Why a password is refused, in words the person can act on; null when it is fine. */
export function passwordProblem(password: string, email?: string): string | null {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters (this one has ${length}); a few words in a row work well.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lower = normalized.toLowerCase();
  if (new Set(lower).size <= 2) return 'This password repeats one or two characters: choose one that is harder to guess.';
  if (isSequenceRun(lower)) return 'This password is a keyboard or alphabet sequence: choose one that is harder to guess.';
  if (email !== undefined) {
    const address = email.trim().toLowerCase();
    const local = address.split('@')[0] ?? '';
    if (lower === address || (local.length >= 4 && lower.replace(/[^a-z0-9]/g, '') === local.replace(/[^a-z0-9]/g, ''))) {
      return 'This password is your email address: choose one that is harder to guess.';
    }
  }
  return null;
}

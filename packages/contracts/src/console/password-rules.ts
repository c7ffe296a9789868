/**
 * Password length after NIST SP 800-63B: 15 to 128 characters, counted in code points after NFKC
 * normalization, and no composition rules. What a guesser tries first is judged by the strength
 * estimator in `@gateway/contracts/password`, kept apart because its dictionaries are large.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonPasswords } from '@zxcvbn-ts/language-common';
import { dictionary as englishWords, translations } from '@zxcvbn-ts/language-en';
import { normalizePassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../console/password-rules';

/** zxcvbn's scale: 3 means about 10^8 guesses or more, "safely unguessable" against an online attacker and costly offline. */
export const PASSWORD_MIN_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

/** Built on first use: the dictionaries take about 100 ms to index. */
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ translations, graphs: adjacencyGraphs, dictionary: { ...commonPasswords, ...englishWords } });
  return estimator;
}

/** The words of the person's own email and tenant, which a guesser aimed at this account tries first. */
function personalWords(email: string | undefined, tenant: string | undefined): string[] {
  const address = email?.trim().toLowerCase() ?? '';
  const [local = '', domain = ''] = address.split('@');
  return [
    address,
    local,
    local.replace(/[^a-z0-9]/g, ''),
    domain,
    ...local.split(/[^a-z0-9]+/),
    ...domain.split('.'),
    tenant ?? '',
    'gateway',
    'console',
  ].filter((word) => word.length >= 3);
}

/**
 * Why a password is refused, in words the person can act on; null when it is fine. One rule for the
 * server and the console's page: the length, then zxcvbn's estimate with its common-password and English
 * dictionaries and the account's own email and tenant as words a guesser knows.
 */
export function passwordProblem(password: string, context: { email?: string; tenant?: string } = {}): string | null {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters (this one has ${length}); a few words in a row work well.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const { score, feedback } = strengthEstimator().check(normalized, personalWords(context.email, context.tenant));
  if (score >= PASSWORD_MIN_SCORE) return null;
  const why = feedback.warning ? ` ${feedback.warning}` : '';
  const advice = feedback.suggestions.length > 0 ? ` ${feedback.suggestions.join(' ')}` : ' Add a few less common words.';
  return `This password is easy to guess.${why}${advice}`;
}

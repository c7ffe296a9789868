import { PASSWORD_MAX_LENGTH, passwordProblem } from './index';

describe('passwordProblem', () => {
  it('accepts passphrases of a few words, without composition rules', () => {
    expect(passwordProblem('correct horse battery staple')).toBeNull();
    expect(passwordProblem('a quiet river at dawn')).toBeNull();
    expect(passwordProblem('owner password is long')).toBeNull();
  });

  it('counts code points after NFKC normalization, not UTF-16 units', () => {
    expect(passwordProblem('Short1!pass')).toMatch(/at least 15 characters \(this one has 11\)/);
    expect(passwordProblem('🙂 five tall owl')).toBeNull();
    expect(passwordProblem('🙂 five tall ow')).toMatch(/this one has 14/);
    expect(passwordProblem('ﬁve tall owls!')).toBeNull();
  });

  it('refuses a password longer than the maximum', () => {
    expect(passwordProblem('word '.repeat(PASSWORD_MAX_LENGTH))).toMatch(/at most 128/);
  });

  it('refuses what a guesser tries first, whatever the pattern: repeats, keyboard runs, sequences, common passwords', () => {
    for (const guessable of [
      'qwertyuiopqwertyuiop',
      'passwordpassword123',
      '1234567890123456',
      'aaaaaaaaaaaaaaaaaaaa',
      'abababababababab',
      'abcdefghijklmnop',
      'qwertyuiopasdfgh',
      'ponmlkjihgfedcba',
      'iloveyouiloveyou',
    ]) {
      expect(passwordProblem(guessable)).toMatch(/^This password is easy to guess\. .+/);
    }
  });

  it('names why and what to do instead', () => {
    expect(passwordProblem('abcdefghijklmnop')).toMatch(/sequences/i);
    expect(passwordProblem('aaaaaaaaaaaaaaaaaaaa')).toMatch(/repeated/i);
  });

  it("refuses the account's own email and tenant as the password", () => {
    expect(passwordProblem('jane.doe.long@example.com', { email: 'Jane.Doe.Long@example.com' })).toMatch(/easy to guess/);
    expect(passwordProblem('janedoelong12345', { email: 'jane.doe.long@example.com' })).toMatch(/personal/);
    expect(passwordProblem('acmewidgets2024!', { email: 'ops@example.com', tenant: 'acmewidgets' })).toMatch(/personal/);
    expect(passwordProblem('acmewidgets2024!', { email: 'ops@example.com', tenant: 'other' })).toBeNull();
    expect(passwordProblem('a different passphrase', { email: 'jane@example.com', tenant: 'acme' })).toBeNull();
  });
});

import { PASSWORD_MAX_LENGTH, passwordProblem } from './password-rules';

describe('passwordProblem', () => {
  it('accepts a long passphrase with no composition rules', () => {
    expect(passwordProblem('correct horse battery staple')).toBeNull();
    expect(passwordProblem('alllowercaseletterswithnodigits')).toBeNull();
  });

  it('refuses fewer than 15 characters and says how many there were', () => {
    expect(passwordProblem('Short1!pass')).toMatch(/at least 15 characters \(this one has 11\)/);
  });

  it('counts code points after NFKC, so an emoji is one character', () => {
    expect(passwordProblem('🙂'.repeat(7) + 'abcxyz12')).toBeNull();
    expect(passwordProblem('🙂'.repeat(6) + 'abcxyz12')).toMatch(/this one has 14/);
  });

  it('refuses more than the maximum', () => {
    expect(passwordProblem('word '.repeat(PASSWORD_MAX_LENGTH))).toMatch(/at most 128/);
  });

  it('refuses repeated characters and sequences', () => {
    expect(passwordProblem('aaaaaaaaaaaaaaaaaaaa')).toMatch(/repeats/);
    expect(passwordProblem('abababababababab')).toMatch(/repeats/);
    expect(passwordProblem('abcdefghijklmnop')).toMatch(/sequence/);
    expect(passwordProblem('123456789012345')).toMatch(/sequence/);
    expect(passwordProblem('qwertyuiopasdfgh')).toMatch(/sequence/);
    expect(passwordProblem('ponmlkjihgfedcba')).toMatch(/sequence/);
  });

  it('refuses the account email', () => {
    expect(passwordProblem('jane.doe.long@example.com', 'Jane.Doe.Long@example.com')).toMatch(/email/);
    expect(passwordProblem('jane-doe-long-name', 'jane.doe.long.name@example.com')).toMatch(/email/);
    expect(passwordProblem('a different passphrase', 'jane@example.com')).toBeNull();
  });
});

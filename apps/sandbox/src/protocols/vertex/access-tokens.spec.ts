import { AccessTokens } from './access-tokens';

describe('AccessTokens', () => {
  it('knows the holder of a token it issued until the token expires, and counts every issue', () => {
    const tokens = new AccessTokens();
    const issued = tokens.issue('sa@example.iam.gserviceaccount.com', 60, 1_000);
    expect(issued).toEqual({ access_token: expect.stringMatching(/^ya29\.sandbox-/), expires_in: 60, token_type: 'Bearer' });
    expect(tokens.holder(issued.access_token, 60_999)).toBe('sa@example.iam.gserviceaccount.com');
    expect(tokens.holder(issued.access_token, 61_000)).toBeNull();
    expect(tokens.holder('ya29.never-issued', 1_000)).toBeNull();
    expect(tokens.issue('sa@example.iam.gserviceaccount.com', 60, 2_000).access_token).not.toBe(issued.access_token);
    expect(tokens.issued).toBe(2);
  });
});

import { useEffect, useState } from 'react';

type PasswordCheck = typeof import('@gateway/contracts/password').passwordProblem;

/**
 * The server's password rule, for the page to judge while the person types. The strength estimator
 * comes with its dictionaries (about 1.6 MB), so it loads only on the page that sets a password; null
 * until it has.
 */
export function usePasswordCheck(): PasswordCheck | null {
  const [check, setCheck] = useState<PasswordCheck | null>(null);
  useEffect(() => {
    let mounted = true;
    void import('@gateway/contracts/password').then((rules) => {
      if (mounted) setCheck(() => rules.passwordProblem);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return check;
}

import { normalizePassword } from '@gateway/contracts';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';

/** argon2id with OWASP's first recommended parameters: 19 MiB, 2 passes, one lane. Runs on libuv's thread pool. */
const PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes and checks console passwords (NFKC-normalized first, as the rules count them). */
@Injectable()
export class PasswordHasher {
  /** A real hash checked when no account matches, so a wrong email takes as long as a wrong password. */
  private decoy?: Promise<string>;

  hash(password: string): Promise<string> {
    return hash(normalizePassword(password), PARAMS);
  }

  async verify(stored: string, password: string): Promise<boolean> {
    try {
      return await verify(stored, normalizePassword(password));
    } catch {
      return false;
    }
  }

  /** Spends a verification's time on nothing: for an unknown email or an account without a password. */
  async verifyNothing(password: string): Promise<false> {
    this.decoy ??= this.hash('a password no account has, to spend the time of a check');
    await this.verify(await this.decoy, password);
    return false;
  }
}

import { Prisma } from '@gateway/db';

/** A unique constraint refused the write: a concurrent create won the race. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

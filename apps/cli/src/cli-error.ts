/** Exit codes of gatewayctl: 2 for anything the operator typed wrong, 1 for the environment failing. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error that ends the command with one line on stderr and a chosen exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }

  static usage(message: string): CliError {
    return new CliError(message, EXIT.usage);
  }

  static failure(message: string): CliError {
    return new CliError(message, EXIT.failure);
  }
}

/** Keeps the stderr promise of one line even when a message spans several. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

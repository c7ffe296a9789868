import { CliError, EXIT } from '../cli-error';

/** The admin API answered with an error body; 4xx is the operator's input, 5xx the gateway's fault. */
export class AdminApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null,
  ) {
    super(`admin API: ${message}${param && !message.includes(param) ? ` (${param})` : ''} [${status} ${code}]`, status < 500 ? EXIT.usage : EXIT.failure);
    this.name = 'AdminApiError';
  }
}

/** No HTTP answer at all: the gateway is down or the URL is wrong. */
export class AdminUnreachableError extends CliError {
  constructor(
    readonly url: string,
    cause: string,
  ) {
    super(`admin API unreachable at ${url} (${cause}); is the gateway running (npm start) and --admin-url right?`, EXIT.failure);
    this.name = 'AdminUnreachableError';
  }
}

// Bedrock's error dialect: the exception's name in `x-amzn-errortype` and `{"message": …}` as the body.
export type BedrockErrorType =
  | 'ValidationException'
  | 'AccessDeniedException'
  | 'InvalidSignatureException'
  | 'UnrecognizedClientException'
  | 'MissingAuthenticationTokenException'
  | 'ResourceNotFoundException'
  | 'ThrottlingException'
  | 'ServiceQuotaExceededException'
  | 'ModelNotReadyException'
  | 'ServiceUnavailableException'
  | 'InternalServerException'
  | 'ModelErrorException';

export class BedrockError extends Error {
  constructor(
    readonly status: number,
    readonly type: BedrockErrorType,
    message: string,
  ) {
    super(message);
  }
}

/** What Bedrock says when an account's quota for the model is spent: a 400, though the next channel may well serve. */
export const QUOTA_MESSAGE = 'Your request exceeded the quota for this model. Request a quota increase or try again later.';

/** The exception AWS names for a status when the sandbox only knows the status (the shared failure controls). */
export function bedrockErrorTypeOf(status: number): BedrockErrorType {
  if (status === 400) return 'ValidationException';
  if (status === 403) return 'AccessDeniedException';
  if (status === 404) return 'ResourceNotFoundException';
  if (status === 424) return 'ModelErrorException';
  if (status === 429) return 'ThrottlingException';
  if (status === 503) return 'ServiceUnavailableException';
  return 'InternalServerException';
}

export function renderBedrockError(_status: number, message: string): { message: string } {
  return { message };
}

/** The `x-amzn-errortype` value as AWS writes it: the name, then the shape's namespace. */
export function bedrockErrorTypeHeader(type: BedrockErrorType): string {
  const namespace =
    type === 'InvalidSignatureException' || type === 'UnrecognizedClientException' || type === 'MissingAuthenticationTokenException'
      ? 'com.amazon.coral.service'
      : 'com.amazon.bedrock';
  return `${type}:http://internal.amazon.com/coral/${namespace}/`;
}

// Bedrock's error dialect: the exception's name in `x-amzn-errortype` and `{"message": …}` as the body.
export type BedrockErrorType =
  | 'ValidationException'
  | 'AccessDeniedException'
  | 'InvalidSignatureException'
  | 'UnrecognizedClientException'
  | 'MissingAuthenticationTokenException'
  | 'ResourceNotFoundException'
  | 'ThrottlingException'
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

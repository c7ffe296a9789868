import {
  type DscErrorBody,
  type ErrorCode,
  type GatewayError,
  type GencErrorBody,
  type MsgcErrorBody,
  type MusicErrorBody,
  type NativeMediaErrorBody,
  type OaicErrorBody,
  type RoomErrorBody,
  httpStatusOf,
} from '@gateway/contracts';

/** Each family's error vocabulary, one exhaustive table per family so a new ErrorCode fails the build here. */

const OAIC: Record<ErrorCode, { type: string; code: string | null }> = {
  invalid_request: { type: 'invalid_request_error', code: null },
  authentication_failed: { type: 'authentication_error', code: 'invalid_api_key' },
  permission_denied: { type: 'permission_error', code: 'permission_denied' },
  not_found: { type: 'not_found_error', code: 'not_found' },
  model_not_found: { type: 'invalid_request_error', code: 'model_not_found' },
  payload_too_large: { type: 'invalid_request_error', code: 'payload_too_large' },
  rate_limited: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  insufficient_quota: { type: 'insufficient_quota', code: 'insufficient_quota' },
  budget_exceeded: { type: 'budget_exceeded', code: 'budget_exceeded' },
  upstream_error: { type: 'api_error', code: 'upstream_error' },
  upstream_timeout: { type: 'api_error', code: 'upstream_timeout' },
  unavailable: { type: 'api_error', code: 'service_unavailable' },
  internal: { type: 'api_error', code: null },
};

const MSGC: Record<ErrorCode, string> = {
  invalid_request: 'invalid_request_error',
  authentication_failed: 'authentication_error',
  permission_denied: 'permission_error',
  not_found: 'not_found_error',
  model_not_found: 'not_found_error',
  payload_too_large: 'request_too_large',
  rate_limited: 'rate_limit_error',
  insufficient_quota: 'billing_error',
  budget_exceeded: 'rate_limit_error',
  upstream_error: 'api_error',
  upstream_timeout: 'api_error',
  unavailable: 'overloaded_error',
  internal: 'api_error',
};

/** Google RPC status names; the HTTP status travels in `code`. */
const GENC: Record<ErrorCode, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  authentication_failed: 'UNAUTHENTICATED',
  permission_denied: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  model_not_found: 'NOT_FOUND',
  payload_too_large: 'INVALID_ARGUMENT',
  rate_limited: 'RESOURCE_EXHAUSTED',
  insufficient_quota: 'RESOURCE_EXHAUSTED',
  budget_exceeded: 'RESOURCE_EXHAUSTED',
  upstream_error: 'INTERNAL',
  upstream_timeout: 'DEADLINE_EXCEEDED',
  unavailable: 'UNAVAILABLE',
  internal: 'INTERNAL',
};

const DSC: Record<ErrorCode, string> = {
  invalid_request: 'InvalidParameter',
  authentication_failed: 'InvalidApiKey',
  permission_denied: 'AccessDenied',
  not_found: 'NotFound',
  model_not_found: 'ModelNotFound',
  payload_too_large: 'RequestTooLarge',
  rate_limited: 'Throttling.RateQuota',
  insufficient_quota: 'Arrearage',
  budget_exceeded: 'Throttling.AllocationQuota',
  upstream_error: 'InternalError',
  upstream_timeout: 'RequestTimeOut',
  unavailable: 'ServiceUnavailable',
  internal: 'InternalError',
};

/** Native media vendors number their errors: 1xxx client side, 5xxx server side. */
const NATIVE_MEDIA: Record<ErrorCode, number> = {
  invalid_request: 1201,
  authentication_failed: 1000,
  permission_denied: 1103,
  not_found: 1203,
  model_not_found: 1203,
  payload_too_large: 1201,
  rate_limited: 1302,
  insufficient_quota: 1102,
  budget_exceeded: 1102,
  upstream_error: 5000,
  upstream_timeout: 5002,
  unavailable: 5001,
  internal: 5000,
};

/**
 * Music speaks its own closed code table (spec section 7) and its HTTP status equals the code.
 * The table has no "not found": a missing route or task is 404, as in every other family.
 */
const MUSIC: Record<ErrorCode, number> = {
  invalid_request: 400,
  authentication_failed: 401,
  permission_denied: 401,
  not_found: 404,
  model_not_found: 400,
  payload_too_large: 413,
  rate_limited: 430,
  insufficient_quota: 429,
  budget_exceeded: 429,
  upstream_error: 500,
  upstream_timeout: 500,
  unavailable: 455,
  internal: 500,
};
const MUSIC_CODES = new Set([400, 401, 404, 405, 413, 429, 430, 455, 500]);

/** A status and the body of the family's dialect (the contracts' error body schemas, as the OpenAPI document shows them). */
export interface DialectError<Body = unknown> {
  status: number;
  body: Body;
}

export function oaicError(error: GatewayError): DialectError<OaicErrorBody> {
  const { type, code } = OAIC[error.code];
  return { status: httpStatusOf(error), body: { error: { message: error.message, type, param: error.param, code } } };
}

export function msgcError(error: GatewayError): DialectError<MsgcErrorBody> {
  return { status: httpStatusOf(error), body: { type: 'error', error: { type: MSGC[error.code], message: error.message } } };
}

export function gencError(error: GatewayError): DialectError<GencErrorBody> {
  const status = httpStatusOf(error);
  return { status, body: { error: { code: status, message: error.message, status: GENC[error.code] } } };
}

export function dscError(error: GatewayError, requestId: string): DialectError<DscErrorBody> {
  return { status: httpStatusOf(error), body: { request_id: requestId, code: DSC[error.code], message: error.message } };
}

export function nativeMediaError(error: GatewayError, requestId: string): DialectError<NativeMediaErrorBody> {
  return { status: httpStatusOf(error), body: { code: NATIVE_MEDIA[error.code], message: error.message, request_id: requestId } };
}

export function musicError(error: GatewayError): DialectError<MusicErrorBody> {
  const passed = error.upstreamStatus !== null && MUSIC_CODES.has(error.upstreamStatus) ? error.upstreamStatus : null;
  const code = passed ?? MUSIC[error.code];
  return { status: code, body: { code, msg: error.message, data: null } };
}

export function roomError(error: GatewayError): DialectError<RoomErrorBody> {
  return { status: httpStatusOf(error), body: { success: false, error: { code: error.code, message: error.message } } };
}

/**
 * The one error module. Anything anywhere may throw an ApiError; the app's onError turns it into the
 * spec's envelope `{success: false, message, error, request_id, ...extra}`. The status table lives here.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  // RFC 6749 §5.2 codes used by the token endpoint.
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}

export interface FieldError {
  field: string;
  message: string;
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError("bad_request", message, extra);
export const notFound = (message = "Not found") => new ApiError("not_found", message);
export const conflict = (message: string) => new ApiError("conflict", message);
export const forbidden = (message: string) => new ApiError("forbidden", message);
export const unprocessable = (message: string, extra?: Record<string, unknown>) =>
  new ApiError("unprocessable", message, extra);

/** 401 with the RFC 6750 challenge header; `description` never echoes the token. */
export function unauthorized(description: string, bearerError: "invalid_request" | "invalid_token" | null = "invalid_token") {
  const challenge = bearerError
    ? `Bearer realm="api", error="${bearerError}", error_description="${description}"`
    : `Bearer realm="api"`;
  return new ApiError("unauthorized", description, {}, { "WWW-Authenticate": challenge });
}

export function validationFailed(errors: FieldError[]) {
  const first = errors[0];
  const message = first ? `Invalid request: ${first.field ? `${first.field}: ` : ""}${first.message}` : "Invalid request";
  return new ApiError("validation_failed", message, { errors });
}

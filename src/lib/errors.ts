/**
 * The one error module. Anything anywhere may throw an ApiError; the app's onError turns it into the
 * spec's envelope `{success: false, message, error, request_id, ...extra}`. The status table lives here.
 */
const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  length_required: 411,
  precondition_failed: 412,
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

  /**
   * The wire body. The default is the spec's envelope; an error whose contract prescribes another body (the
   * 429, calculate's country-rule `{errors}`) is a subclass that overrides this, so the one `onError` renders
   * every error and no route catches and re-shapes.
   */
  body(requestId: string): Record<string, unknown> {
    return { success: false, message: this.message, error: this.code, request_id: requestId, ...this.extra };
  }
}

/** The spec's 429 body: exactly `{error: "rate_limited", message}`, with Retry-After and RateLimit-* headers. */
export class RateLimitedError extends ApiError {
  constructor(message: string, headers: Record<string, string>) {
    super("rate_limited", message, {}, headers);
  }

  override body(): Record<string, unknown> {
    return { error: "rate_limited", message: this.message };
  }
}

export interface FieldError {
  field: string;
  message: string;
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new ApiError("bad_request", message, extra);
export const notFound = (message = "Not found") => new ApiError("not_found", message);
export const conflict = (message: string) => new ApiError("conflict", message);
export const forbidden = (message: string) => new ApiError("forbidden", message);
export const unprocessable = (message: string, extra?: Record<string, unknown>) =>
  new ApiError("unprocessable", message, extra);

/** 401 with the RFC 6750 challenge header; `description` never echoes the token. */
export function unauthorized(
  description: string,
  bearerError: "invalid_request" | "invalid_token" | null = "invalid_token",
) {
  const challenge = bearerError
    ? `Bearer realm="api", error="${bearerError}", error_description="${description}"`
    : `Bearer realm="api"`;
  return new ApiError("unauthorized", description, {}, { "WWW-Authenticate": challenge });
}

export function validationFailed(errors: FieldError[]) {
  const first = errors[0];
  const message = first
    ? `Invalid request: ${first.field ? `${first.field}: ` : ""}${first.message}`
    : "Invalid request";
  return new ApiError("validation_failed", message, { errors });
}

export interface CountryRuleFailure {
  code: string;
  description: string;
}

/**
 * A workspace country rule refused a calculation: 400 with exactly `{errors: [{code, description}]}`, the
 * body the spec gives calculate for this case (no envelope).
 */
export class CountryRuleError extends ApiError {
  constructor(readonly failures: CountryRuleFailure[]) {
    super("bad_request", failures.map((f) => f.description).join("; "));
  }

  override body(): Record<string, unknown> {
    return { errors: this.failures };
  }
}

/** The consignment contracts' own error bodies, rendered by the one onError like every ApiError. */
import type { z } from "@hono/zod-openapi";
import { ApiError, type CountryRuleFailure } from "../../lib/errors";

/**
 * The spec's 422 for consignment create, schema and rule failures alike: every problem at once, as strings in
 * `errors` and as `{message}` objects in `validation_errors`.
 */
export class ConsignmentRejected extends ApiError {
  constructor(readonly problems: string[]) {
    const [only] = problems;
    super(
      "unprocessable",
      problems.length === 1 && only !== undefined ? only : `The consignment was rejected: ${problems.length} problems`,
    );
  }

  override body(requestId: string): Record<string, unknown> {
    return {
      success: false,
      message: this.message,
      error: this.code,
      request_id: requestId,
      errors: this.problems,
      validation_errors: this.problems.map((message) => ({ message })),
    };
  }
}

/**
 * Schema failures of a consignment body as the 422 lists them, each with its path in the body
 * (`parcels[0].items[1].quantity: …`).
 */
export function schemaProblems(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((i) => {
    const path = i.path
      .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
      .join("")
      .replace(/^\./, "");
    if (i.code === "unrecognized_keys" && i.path.length === 0 && i.keys.includes("items")) {
      return "items: top-level items are not accepted; put items in parcels[].items (linked by order_ref) or in parcels[].orders[].items";
    }
    return `${path || "body"}: ${i.message}`;
  });
}

/**
 * A workspace country rule refused an assessment: the assessment's documented 422 (the envelope, the rules'
 * descriptions in `errors` and the rules themselves in `rule_violations`), where calculate itself answers 400.
 */
export class AssessmentRefused extends ApiError {
  constructor(readonly failures: CountryRuleFailure[]) {
    super(
      "unprocessable",
      `The workspace's country rules refuse this assessment: ${failures.map((f) => f.description).join("; ")}`,
    );
  }

  override body(requestId: string): Record<string, unknown> {
    return {
      success: false,
      message: this.message,
      error: this.code,
      request_id: requestId,
      errors: this.failures.map((f) => f.description),
      rule_violations: this.failures,
    };
  }
}

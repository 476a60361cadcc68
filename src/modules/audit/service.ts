/** Status → the spec's outcome: below 400 completed, otherwise failed. */
export const outcomeOf = (status: number): "completed" | "failed" => (status < 400 ? "completed" : "failed");

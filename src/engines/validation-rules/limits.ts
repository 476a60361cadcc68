/**
 * Size limits of a validation rule's condition, checked before the condition's recursive schema sees it.
 *
 * Why before: the condition schema is recursive, so zod descends one stack frame per `all` / `any` / `not`
 * level, and about 1,300 nested `not`s overflowed the stack (a 500). The walk here is iterative and stops at
 * the first limit it crosses, so a hostile body costs at most MAX_NODES steps before it is refused.
 *
 * The limits also bound evaluation: `holds` visits each node once (≤ MAX_NODES), recurses at most MAX_DEPTH
 * frames, and the `in` lists it scans fit in MAX_BYTES, so one rule's cost per consignment is small and fixed.
 */

/** Levels of `all` / `any` / `not`, counting the outermost condition as level 1. */
export const MAX_CONDITION_DEPTH = 32;
/** Conditions in the tree: every leaf and every `all` / `any` / `not`. */
export const MAX_CONDITION_NODES = 500;
/** The condition as stored: its JSON text, in UTF-8 bytes. */
export const MAX_CONDITION_BYTES = 16 * 1024;

export const CONDITION_LIMITS_TEXT =
  `At most ${MAX_CONDITION_DEPTH} levels of all / any / not, ${MAX_CONDITION_NODES} conditions in all ` +
  `(leaves and groups), and ${MAX_CONDITION_BYTES} bytes as JSON; a larger condition is refused with 400.`;

/** The sub-conditions a node names, as sent; anything that is not a group has none (zod judges its shape). */
function childrenOf(node: unknown): unknown[][] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return [];
  const { all, any, not } = node as { all?: unknown; any?: unknown; not?: unknown };
  const out: unknown[][] = [];
  if (Array.isArray(all)) out.push(all);
  if (Array.isArray(any)) out.push(any);
  if (not !== undefined) out.push([not]);
  return out;
}

function shapeProblem(condition: unknown): string | null {
  const stack: { node: unknown; depth: number }[] = [{ node: condition, depth: 1 }];
  let visited = 0;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    visited++;
    if (top.depth > MAX_CONDITION_DEPTH)
      return `condition nests more than ${MAX_CONDITION_DEPTH} levels of all / any / not (the limit is ${MAX_CONDITION_DEPTH})`;
    const groups = childrenOf(top.node);
    // Counted before pushing, so a single huge `all` array is refused without walking it.
    const pending = groups.reduce((n, g) => n + g.length, visited + stack.length);
    if (pending > MAX_CONDITION_NODES)
      return `condition has more than ${MAX_CONDITION_NODES} conditions (the limit is ${MAX_CONDITION_NODES})`;
    for (const group of groups) for (const node of group) stack.push({ node, depth: top.depth + 1 });
  }
  return null;
}

function sizeProblem(condition: unknown): string | null {
  let bytes: number;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(condition) ?? "").byteLength;
  } catch {
    // JSON.stringify gives up (RangeError) only on absurdly nested leaf values: too large by any measure.
    bytes = Number.POSITIVE_INFINITY;
  }
  if (bytes <= MAX_CONDITION_BYTES) return null;
  const size = Number.isFinite(bytes) ? `${bytes} bytes` : "too large";
  return `condition is ${size} as JSON (the limit is ${MAX_CONDITION_BYTES} bytes)`;
}

/**
 * Why a condition, as sent, is over the documented limits; null when it is within them. Runs on the raw
 * parsed JSON, before schema validation, and never recurses.
 */
export function conditionLimitProblem(condition: unknown): string | null {
  return shapeProblem(condition) ?? sizeProblem(condition);
}

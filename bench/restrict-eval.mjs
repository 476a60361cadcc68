/**
 * Scores POST /restrict on the evaluation set (bench/restrict-eval.json), shared by the offline report
 * (bench/restrict-offline.mjs, through the engine in Node), the benchmark (through the running server) and the
 * workerd test that holds the floors (through the Worker). `check(c)` resolves to the platform matches of one
 * case: `[{id, rule_type}]`.
 *
 * A restricted case is caught when a platform rule of its family matches; its label is right when the
 * strongest such match (prohibition > restriction > observation) is the authority's classification. A clean
 * case is falsely flagged by any match at all.
 */
const RANK = { prohibition: 0, restriction: 1, observation: 2 };

export async function evaluate(evalSet, rules, check) {
  const familyOf = new Map(rules.map((r) => [`restriction_${r.id}`, r.family ?? "other"]));
  const rows = [];
  for (const c of evalSet.cases) {
    const matches = await check(c);
    const own = c.family ? matches.filter((m) => familyOf.get(m.id) === c.family) : [];
    const strongest = own.map((m) => m.rule_type).sort((a, b) => RANK[a] - RANK[b])[0] ?? null;
    rows.push({
      split: c.split,
      batch: c.batch ?? null,
      destination: c.destination_country,
      family: c.family,
      title: c.item.title,
      expect: c.expect,
      got: strongest,
      ids: matches.map((m) => m.id),
      caught: c.expect ? own.length > 0 : null,
      rightLabel: c.expect ? strongest === c.expect : null,
      falseFlag: c.expect ? null : matches.length > 0,
    });
  }
  return rows;
}

const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)}%` : "n/a");

/** Recall, right label and false flags over some rows. */
export function score(rows) {
  const restricted = rows.filter((r) => r.expect);
  const clean = rows.filter((r) => !r.expect);
  const caught = restricted.filter((r) => r.caught).length;
  const right = restricted.filter((r) => r.rightLabel).length;
  const flagged = clean.filter((r) => r.falseFlag).length;
  return {
    restricted: restricted.length,
    caught,
    right,
    recall: restricted.length ? caught / restricted.length : 1,
    label: caught ? right / caught : 1,
    clean: clean.length,
    flagged,
    falseFlagRate: clean.length ? flagged / clean.length : 0,
  };
}

function table(rows, key, title) {
  const groups = [...new Set(rows.map((r) => r[key]).filter(Boolean))].sort();
  const lines = [
    `| ${title} | restricted cases | caught | right label (of caught) | clean cases | false flags |`,
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const g of groups) {
    const inGroup = rows.filter((r) => r[key] === g);
    const s = score(inGroup);
    lines.push(
      `| ${g} | ${s.restricted} | ${s.caught} (${pct(s.caught, s.restricted)}) | ${s.right} (${pct(s.right, s.caught)}) | ${s.clean} | ${s.flagged} |`,
    );
  }
  return lines;
}

export function toMarkdown(rows) {
  const out = [];
  for (const split of ["dev", "test"]) {
    const r = rows.filter((x) => x.split === split);
    const s = score(r);
    out.push(
      `#### ${split === "dev" ? "Development split (tuned on)" : "Test split (held out, not tuned on)"}`,
      "",
      `- recall: ${s.caught}/${s.restricted} restricted cases caught by a rule of their family (${pct(s.caught, s.restricted)})`,
      `- right label: ${s.right}/${s.caught} of the caught cases carry the authority's classification (${pct(s.right, s.caught)}); ${pct(s.right, s.restricted)} of all restricted cases`,
      `- false flags on everyday items: ${s.flagged}/${s.clean} (${pct(s.flagged, s.clean)})`,
      "",
      ...table(r, "destination", "destination"),
      "",
      ...table(
        r.filter((x) => x.expect),
        "family",
        "family",
      ),
      "",
    );
    const misses = r.filter((x) => (x.expect && (!x.caught || !x.rightLabel)) || x.falseFlag);
    if (misses.length) {
      out.push(
        "Cases not right:",
        "",
        "| destination | item | expected | got | matched rules |",
        "| --- | --- | --- | --- | --- |",
      );
      for (const m of misses)
        out.push(
          `| ${m.destination} | ${m.title} | ${m.expect ?? "clean"}${m.family ? ` (${m.family})` : ""} | ${m.got ?? (m.falseFlag ? "flagged" : "missed")} | ${m.ids.join(", ") || "none"} |`,
        );
      out.push("");
    }
  }
  return out.join("\n");
}

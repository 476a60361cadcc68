/**
 * Runs the spot-check set (bench/restrict-eval.json) through a `call(method, path, body)` function that
 * resolves to {status, json}; shared by the benchmark report and the test that holds the floors.
 */
export async function evaluate(evalSet, rules, call) {
  const idOf = ([country, direction, title]) => {
    const r = rules.find((x) => x.imposing_country === country && x.direction === direction && x.title === title);
    if (!r) throw new Error(`eval set names an unknown rule: ${country} ${direction} ${title}`);
    return `restriction_${r.id}`;
  };
  const destinations = [...new Set(evalSet.cases.map((c) => c.destination_country))].sort();
  const enabled = await call("PATCH", "/admin/api/v1/settings", { "restrict.enabled_destinations": destinations });
  if (enabled.status !== 200) throw new Error(`PATCH /settings: ${enabled.status}`);
  const rows = [];
  let expected = 0;
  let found = 0;
  let clean = 0;
  let falsePositives = 0;
  try {
    for (const c of evalSet.cases) {
      const res = await call("POST", "/admin/api/v1/restrict", {
        destination_country: c.destination_country,
        ...(c.origin_country ? { origin_country: c.origin_country } : {}),
        items: [c.item],
      });
      if (res.status !== 200) throw new Error(`POST /restrict: ${res.status} ${JSON.stringify(res.json)}`);
      const got = (res.json.items[0].restrictions ?? []).map((m) => m.id);
      const want = c.expect.map(idOf);
      const hit = want.filter((id) => got.includes(id));
      expected += want.length;
      found += hit.length;
      if (want.length === 0) {
        clean++;
        if (got.length) falsePositives++;
      }
      rows.push({
        title: c.item.title,
        destination: c.destination_country,
        want,
        got,
        ok: want.length ? hit.length === want.length : got.length === 0,
        note: c.known_false_positive ?? "",
      });
    }
  } finally {
    await call("PATCH", "/admin/api/v1/settings", { "restrict.enabled_destinations": null });
  }
  return { cases: rows.length, expected, found, recall: expected ? found / expected : 1, clean, falsePositives, rows };
}

export function toMarkdown(r) {
  const lines = [
    "### Restrict: spot-check set (bench/restrict-eval.json)",
    "",
    `- rule recall: ${r.found}/${r.expected} expected platform rules matched (${(r.recall * 100).toFixed(1)}%)`,
    `- everyday items wrongly flagged: ${r.falsePositives}/${r.clean}`,
    "",
    "| item | destination | expected | matched | ok |",
    "| --- | --- | --- | --- | --- |",
    ...r.rows.map(
      (x) =>
        `| ${x.title} | ${x.destination} | ${x.want.join(", ") || "clean"} | ${x.got.join(", ") || "none"} | ${x.ok ? "yes" : `no${x.note ? ` (${x.note})` : ""}`} |`,
    ),
  ];
  return lines.join("\n");
}

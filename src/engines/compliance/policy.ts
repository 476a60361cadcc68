/**
 * The decision of a consignment's compliance pass, from what the engines found: which holds it places and
 * what an officer should still look at. Pure: the module gathers the findings, this decides.
 *
 * - A party whose best match scores at or above the workspace's hold score (0.85 by default: the score from
 *   which a match is worth an officer's review, see the README's screening section) holds the consignment
 *   (`screening`); a match between the list threshold (0.7) and that score is a warning.
 * - A prohibition that applies to an item holds it (`prohibited_goods`); a restriction whose licence,
 *   permit or certificate is required holds it (`licence_required`); one that may be required, and an
 *   observation, are warnings, since the rule itself cannot say whether the goods need one.
 * - A code suggested for an item that came without one is never a hold (the goods are not wrong, their
 *   description is unclear), but a low-confidence suggestion or none at all is a warning, as is a landed
 *   cost that could not be quoted in full.
 */

type HoldCode = "screening" | "prohibited_goods" | "licence_required";

export interface PartyFinding {
  /** `sender`, `receiver`, or a supporting agent (`importer_of_record`, `return`, …). */
  role: string;
  name: string;
  matches: { score: number; list_code: string; entry_name: string; matched_name: string }[];
}

export interface GoodsFinding {
  item_id: string;
  label: string;
  matches: {
    id: string;
    rule_type: "prohibition" | "restriction" | "observation";
    requirement: "required" | "may_be_required" | null;
    title: string;
    imposing_country_code: string;
    measure_direction: string;
  }[];
}

export interface ClassificationFinding {
  item_id: string;
  label: string;
  /** Null when the classifier could not place the item. */
  code: string | null;
  confidence: "high" | "medium" | "low" | null;
  error: string | null;
}

export interface Policy {
  holds: boolean;
  screeningHoldScore: number;
}

export interface Findings {
  parties: PartyFinding[];
  goods: GoodsFinding[];
  classifications: ClassificationFinding[];
  /** Why a part of the pass could not run or is incomplete (no destination, no tariff, missing rates). */
  gaps: string[];
}

interface HoldDecision {
  code: HoldCode;
  reason: string;
}

export interface Decision {
  outcome: "release" | "hold";
  /** Every hold the findings call for; placed only when the policy's holds are on. */
  holds: HoldDecision[];
  warnings: string[];
}

const direction = (d: string) => (d === "EXPORT" ? "export" : "import");

function partyDecisions(parties: PartyFinding[], policy: Policy, out: Decision) {
  for (const p of parties) {
    const [best] = [...p.matches].sort((a, b) => b.score - a.score);
    if (!best) continue;
    const what = `${p.role} '${p.name}' matches '${best.entry_name}' on ${best.list_code} (score ${best.score})`;
    if (best.score >= policy.screeningHoldScore) out.holds.push({ code: "screening", reason: `Screening: ${what}` });
    else out.warnings.push(`Screening: ${what}, below the hold score ${policy.screeningHoldScore}: review it`);
  }
}

function goodsDecisions(goods: GoodsFinding[], out: Decision) {
  for (const g of goods)
    for (const m of g.matches) {
      const rule = `${m.title} (${m.imposing_country_code} ${direction(m.measure_direction)}, ${m.id})`;
      if (m.rule_type === "prohibition")
        out.holds.push({ code: "prohibited_goods", reason: `Item ${g.label}: prohibited: ${rule}` });
      else if (m.rule_type === "restriction" && m.requirement === "required")
        out.holds.push({ code: "licence_required", reason: `Item ${g.label}: licence or permit required: ${rule}` });
      else if (m.rule_type === "restriction")
        out.warnings.push(`Item ${g.label}: a licence or permit may be required: ${rule}`);
      else out.warnings.push(`Item ${g.label}: ${rule}`);
    }
}

function classificationWarnings(found: ClassificationFinding[], out: Decision) {
  for (const f of found) {
    if (f.code === null) out.warnings.push(`Item ${f.label}: no HS code and none could be suggested: ${f.error ?? ""}`);
    else if (f.confidence === "low")
      out.warnings.push(`Item ${f.label}: no HS code; the suggested ${f.code} has low confidence: confirm it`);
  }
}

export function decide(findings: Findings, policy: Policy): Decision {
  const out: Decision = { outcome: "release", holds: [], warnings: [] };
  partyDecisions(findings.parties, policy, out);
  goodsDecisions(findings.goods, out);
  classificationWarnings(findings.classifications, out);
  out.warnings.push(...findings.gaps);
  out.outcome = out.holds.length ? "hold" : "release";
  return out;
}

/**
 * The classification engine as the offline bench scripts use it: src/engines/classify/engine.ts bundled with
 * esbuild (which wrangler installs) and imported into Node, and the reference data the Worker loads into it
 * (HS 2022 nomenclature, the US and GB national lines, the synonym phrases), read from data/hs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The engine module (buildIndex, rank, ...), or another module of src/engines/classify, bundled fresh from the sources. */
export async function loadEngine(module = "engine") {
  const out = join(mkdtempSync(join(tmpdir(), "classify-")), `${module}.mjs`);
  execFileSync(join(root, "node_modules", ".bin", "esbuild"), [
    join(root, `src/engines/classify/${module}.ts`),
    "--bundle",
    "--format=esm",
    "--platform=neutral",
    `--outfile=${out}`,
    "--log-level=warning",
  ]);
  return import(pathToFileURL(out).href);
}

export const readRepoFile = (p) => readFileSync(resolve(root, p), "utf8");

/** What buildIndex takes: headings and subheadings, national lines, synonym phrases. */
export function referenceData() {
  const hs = JSON.parse(readRepoFile("data/hs/hs2022.json")).map(([code, parent, , description]) => ({
    code,
    parent,
    description,
  }));
  const lines = [];
  for (const [schedule, f] of [
    ["US", "lines-us.json"],
    ["GB", "lines-gb.json"],
  ])
    for (const [code, description] of JSON.parse(readRepoFile(`data/hs/${f}`)))
      lines.push({ schedule, code, description });
  // The US statistical lines, as the Worker loads them (schedule US10): their wording feeds the index too.
  for (const list of Object.values(JSON.parse(readRepoFile("data/hs/lines-us10.json"))))
    for (const [code, description] of list) lines.push({ schedule: "US10", code, description });
  // The tariff index phrases, as the Worker loads them (schedule REF): index vocabulary only.
  for (const [description, code] of JSON.parse(readRepoFile("data/hs/search-references.json")))
    lines.push({ schedule: "REF", code, description });
  const synonyms = readRepoFile("data/hs/synonyms.tsv")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .flatMap((l) => {
      const [p, c] = l.split("\t");
      return p.split("|").map((phrase) => ({ phrase: phrase.trim(), codes: c.trim() }));
    });
  // The tariff authority's search-term guidance, as the Worker loads it (kind "index": weaker product terms).
  for (const l of readRepoFile("data/hs/intercepts.tsv").split("\n"))
    if (l.trim() && !l.startsWith("#")) {
      const [phrase, codes] = l.split("\t");
      synonyms.push({ phrase: phrase.trim(), codes: codes.trim(), kind: "index" });
    }
  return { hs, lines, synonyms };
}

/**
 * The precedents the Worker loads (data/hs/rulings.tsv, as scripts/data/hs.mjs reads it): ruling number, code,
 * subject line and description.
 */
export function referenceRulings() {
  return readRepoFile("data/hs/rulings.tsv")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("ruling\t"))
    .map((l) => {
      const [rulingNumber, code, , subject, description] = l.split("\t");
      return { rulingNumber, code, subject: subject || description, description, url: "" };
    });
}

/**
 * The rulings the Worker weighs, without those of an evaluated file (`ids`, ruling numbers as data/hs/rulings.tsv
 * writes them): an item is never helped by its own ruling nor by any other of the same file, so a test split's
 * figures measure what the other rulings teach about new goods.
 */
export function precedentsWithout(P, ids) {
  return P.buildPrecedents(referenceRulings().filter((r) => !ids.has(r.rulingNumber)));
}

/**
 * The votes of the rulings nearest to `text` as the Worker casts them (five at most), leaving out any ruling whose
 * text is nearly the same (similarity 0.9 or more: the same goods ruled on twice, under another number).
 */
/** The headings' centroids that vote, as the Worker passes them (service.ts suggestCodes). */
export function headingVotes(P, precedents, text) {
  return P.nearestHeadings(precedents, text);
}

/** The heading model's likeliest headings that vote, as the Worker passes them (service.ts suggestCodes). */
export function modelVotes(P, precedents, text) {
  return P.likelyHeadings(precedents, text);
}

/** The subheadings that vote, the heading model's probabilities shared out, as the Worker passes them. */
export function subheadingVotes(P, precedents, text) {
  return P.likelySubheadings(precedents, text, P.likelyHeadings(precedents, text));
}

export function precedentVotes(P, precedents, text) {
  return P.nearestRulings(precedents, text, { limit: 10, min: P.VOTE_SIMILARITY })
    .filter((p) => p.similarity < 0.9)
    .slice(0, 5)
    .map((p) => ({ code: p.code, similarity: p.similarity }));
}

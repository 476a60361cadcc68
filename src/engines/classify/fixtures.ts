/**
 * Test support: builds the engine's index from the committed files in data/hs (the same rows the `hs`
 * dataset loads into D1) and reads the evaluation set. Used by the pure tests only.
 */
import evalTsv from "../../../bench/data/classify-eval.tsv?raw";
import holdoutTsv from "../../../bench/data/classify-holdout.tsv?raw";
import cbp2026DevTsv from "../../../bench/data/classify-rulings-cbp2026-dev.tsv?raw";
import cbp2026TestTsv from "../../../bench/data/classify-rulings-cbp2026-test.tsv?raw";
import rulingsDevTsv from "../../../bench/data/classify-rulings-dev.tsv?raw";
import rulingsTestTsv from "../../../bench/data/classify-rulings-test.tsv?raw";
import hs2022 from "../../../data/hs/hs2022.json";
import interceptsTsv from "../../../data/hs/intercepts.tsv?raw";
import linesGb from "../../../data/hs/lines-gb.json";
import linesUs from "../../../data/hs/lines-us.json";
import searchReferences from "../../../data/hs/search-references.json";
import synonymsTsv from "../../../data/hs/synonyms.tsv?raw";
import { buildIndex, INDEX_ONLY, type Index } from "./engine";

function parseSynonyms(tsv: string) {
  return tsv
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .flatMap((l) => {
      const [phrases = "", codes] = l.split("\t");
      if (codes === undefined) throw new Error(`synonym line without a tab: ${l}`);
      return phrases.split("|").map((phrase) => ({ phrase: phrase.trim(), codes: codes.trim() }));
    });
}

export const evaluationSet = (which: "eval" | "holdout" = "eval"): { description: string; hs6: string }[] =>
  (which === "eval" ? evalTsv : holdoutTsv)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const [description = "", hs6] = l.split("\t");
      if (hs6 === undefined) throw new Error(`evaluation line without a tab: ${l}`);
      return { description, hs6: hs6.trim() };
    });

/** A CBP ruling-grade item: the code the ruling gave and where the ruling was read (see the file header). */
export interface RulingItem {
  description: string;
  hs6: string;
  code: string;
  ruling: string;
  date: string;
  source: string;
}

const RULING_FILES = {
  dev: rulingsDevTsv,
  test: rulingsTestTsv,
  "cbp2026-dev": cbp2026DevTsv,
  "cbp2026-test": cbp2026TestTsv,
} as const;

/**
 * A ruling-grade split: `dev` / `test` are importer-style restatements of CBP rulings, `cbp2026-*` CBP's own
 * statements of the facts from rulings of July-September 2026 (columns: description, code, ruling, source).
 */
export const rulingSet = (split: keyof typeof RULING_FILES): RulingItem[] =>
  RULING_FILES[split]
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const cells = l.split("\t");
      const [description = "", code = "", ruling = ""] = cells;
      // The restatement files carry a date column before the source; the CBP text files do not.
      const [date = "", source = ""] = cells.length >= 5 ? cells.slice(3) : ["", cells[3] ?? ""];
      const digits = code.replace(/\D/g, "");
      return { description, hs6: digits.slice(0, 6), code: digits, ruling, date, source };
    });

let index: Index | undefined;
export function fullIndex(): Index {
  index ??= buildIndex(
    (hs2022 as [string, string | null, string, string][]).map(([code, parent, , description]) => ({
      code,
      parent,
      description,
    })),
    [
      ...(linesUs as [string, string][]).map(([code, description]) => ({ schedule: "US", code, description })),
      ...(linesGb as [string, string][]).map(([code, description]) => ({ schedule: "GB", code, description })),
      ...(searchReferences as [string, string][]).map(([description, code]) => ({
        schedule: INDEX_ONLY,
        code,
        description,
      })),
    ],
    [...parseSynonyms(synonymsTsv), ...parseSynonyms(interceptsTsv).map((s) => ({ ...s, kind: "index" }))],
  );
  return index;
}

/**
 * Test support: builds the engine's index from the committed files in data/hs (the same rows the `hs`
 * dataset loads into D1) and reads the evaluation set. Used by the pure tests only.
 */
import evalTsv from "../../../bench/data/classify-eval.tsv?raw";
import holdoutTsv from "../../../bench/data/classify-holdout.tsv?raw";
import rulingsDevTsv from "../../../bench/data/classify-rulings-dev.tsv?raw";
import rulingsTestTsv from "../../../bench/data/classify-rulings-test.tsv?raw";
import hs2022 from "../../../data/hs/hs2022.json";
import linesGb from "../../../data/hs/lines-gb.json";
import linesUs from "../../../data/hs/lines-us.json";
import synonymsTsv from "../../../data/hs/synonyms.tsv?raw";
import { buildIndex, type Index } from "./engine";

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

export const rulingSet = (split: "dev" | "test"): RulingItem[] =>
  (split === "dev" ? rulingsDevTsv : rulingsTestTsv)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const [description = "", code = "", ruling = "", date = "", source = ""] = l.split("\t");
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
    ],
    parseSynonyms(synonymsTsv),
  );
  return index;
}

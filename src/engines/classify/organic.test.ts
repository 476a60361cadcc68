import { describe, expect, it } from "vitest";
import { organicHeading } from "./organic";

describe("organicHeading: Chapter 29 by the groups a chemical name states (note 3: the last heading)", () => {
  it.each([
    ["2-methyl-2-butene", "2901"],
    ["Fluorene", "2902"],
    ["1,1,1,3,3,3-hexafluoropropane", "2903"],
    ["Hexafluoroisopropanol", "2905"],
    ["aluminum isopropoxide", "2905"],
    ["2,4-dichlorophenol", "2908"],
    // A phenol and an ether: the ether's heading comes later.
    ["2-t-Butyl-4-methoxyphenol", "2909"],
    ["acetaldehyde", "2912"],
    // A halogenated ketone is a ketone.
    ["Hexachloroacetone", "2914"],
    ["DL-Malic acid", "2918"],
    ["Cyclohexylamine", "2921"],
    ["4-Isopropylaniline", "2921"],
    // An amine with an oxygen function is an oxygen-function amino-compound.
    ["diethylenetriamine pentaacetic acid", "2922"],
    ["hexane-1,3,6-tricarbonitrile", "2926"],
    ["3-Chlorobenzyl cyanide", "2926"],
    ["4-Amino-3,6-bis[(p-aminophenyl)azo]-5-hydroxy-2,7-naphthalenedisulfonic acid", "2927"],
    ["2,2'-Dithiosalicylic Acid", "2930"],
    ["4,4'-Diaminodiphenylsulfone", "2930"],
    ["pyridine", "2933"],
    ["4-[N-(2,4-Diamino-6-pteridinylmethyl)-N-methylamino]benzoic acid", "2933"],
    ["4,4'-Dithio-bis-morpholine", "2934"],
    ["Cefotetan", "2941"],
  ])("%s → %s", (name, heading) => {
    expect(organicHeading(name)?.heading).toBe(heading);
  });

  it("names no heading for inorganic compounds and for words without a group", () => {
    // Hydrazine itself is inorganic (2825.10); only its organic derivatives are 2928.
    expect(organicHeading("mono hydrazine sulfate")).toBeUndefined();
    expect(organicHeading("sodium chloride")).toBeUndefined();
    expect(organicHeading("cotton t-shirt")).toBeUndefined();
  });
});

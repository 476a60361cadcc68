/**
 * The screening engine as the offline bench scripts use it: src/engines/screen/index.ts of a checkout (this
 * one by default, or another, to compare before and after) bundled with esbuild and imported into Node, and
 * the index built from that checkout's bundled SDN and UN lists.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** FNV-1a, 32 bits, over the code points of `s`: the benches' content-blind dev / test splits. */
export function fnv1a(s) {
  let h = 0x811c9dc5;
  for (const c of s) h = Math.imul(h ^ c.codePointAt(0), 0x01000193) >>> 0;
  return h;
}

/** The engine's index input from the bundled SDN and UN lists (`readList` of scripts/data/sanctions.mjs). */
export function sanctionsInput(readList) {
  const input = [];
  for (const code of ["SDN", "UN"])
    for (const e of readList(code))
      input.push({
        id: `${code}:${e.ref}`,
        listCode: code,
        entryType: e.type,
        name: e.name,
        altNames: e.alt_names,
        remarks: e.remarks,
      });
  return input;
}

/** A module of a checkout (`src/engines/screen/index.ts`...) bundled with esbuild and imported into Node. */
export async function bundledModule(entry, root = here) {
  const { build } = await import(join(root, "node_modules/esbuild/lib/main.js"));
  const out = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format: "esm",
    write: false,
    platform: "neutral",
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}

/** `{E, index, input, screen(name)}`: the engine module, the index over both lists, its input, and a query returning `{id, name, score}`. */
export async function screenEngine(root = here) {
  const E = await bundledModule("src/engines/screen/index.ts", root);
  const { readList } = await import(join(root, "scripts/data/sanctions.mjs"));
  const input = sanctionsInput(readList);
  const index = E.ScreenIndex.build(input);
  const screen = (name) =>
    E.screen(index, { name }).map((h) => ({
      id: index.entries[h.entry].id,
      name: h.matchedName,
      score: h.score,
      hit: h,
    }));
  return { E, index, input, screen };
}

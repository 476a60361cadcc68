#!/usr/bin/env node
/**
 * The full official list files through the dataset registry, measured two ways:
 *
 * 1. In process: the registry's streaming parsers (src/engines/datasets) over the full OFAC trio and UN XML,
 *    with CPU time and the peak heap while parsing (the entries are counted, not kept, as the registry's
 *    validation and staging runs do).
 * 2. End to end (`--dev`): `wrangler dev` on a fresh state, the files uploaded through
 *    POST /platform/v1/datasets/{dataset}/versions as an operator would, loaded through the DATASETS queue
 *    in runs of ROWS_PER_RUN rows, activated, then screened.
 *
 * Usage: node --import tsx bench/datasets-load.mjs [--dev] [--sdn F --alt F --add F --un F]
 * (defaults: the snapshot files in ../shared/data named in data/sanctions/SOURCE.md).
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { root } from "../scripts/data/lib.mjs";
import { localServer, sleep } from "../scripts/lib/local-server.mjs";
import { ofacEntries, unEntries } from "../src/engines/datasets/sanctions.ts";
import { ROWS_PER_RUN } from "../src/modules/datasets/service.ts";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const shared = join(root, "..", "shared", "data");
const files = {
  sdn: opt("--sdn", join(shared, "sanctions-ofac-sdn-2024", "sdn.csv")),
  alt: opt("--alt", join(shared, "sanctions-ofac-sdn-2024", "alt_2026-06.csv")),
  add: opt("--add", join(shared, "sanctions-ofac-sdn-2024", "add_2026-06.csv")),
  un: opt("--un", join(shared, "sanctions-un", "un_consolidated.xml")),
};
const mb = (n) => (n / 1024 / 1024).toFixed(1);

async function* text(file) {
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 })) yield chunk;
}

async function measure(name, bytes, iter) {
  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  for await (const _ of iter) {
    if (++n % 500 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const cpu = process.cpuUsage(cpu0);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return {
    name,
    mb: mb(bytes),
    entries: n,
    wall_ms: Math.round(performance.now() - t0),
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    heap_growth_mb: mb(peak - heap0),
  };
}

const size = (...fs) => fs.reduce((s, f) => s + statSync(f).size, 0);
const rows = [
  await measure(
    "OFAC SDN (sdn.csv + alt.csv + add.csv)",
    size(files.sdn, files.alt, files.add),
    ofacEntries({ sdn: text(files.sdn), alt: text(files.alt), add: text(files.add) }),
  ),
  await measure("UN consolidated.xml", size(files.un), unEntries(text(files.un))),
];
console.log("\nIn process (Node 22, the Worker's parsers):\n");
console.log("| file | MB | entries | wall ms | CPU ms | heap growth MB |");
console.log("|---|---|---|---|---|---|");
for (const r of rows)
  console.log(`| ${r.name} | ${r.mb} | ${r.entries} | ${r.wall_ms} | ${r.cpu_ms} | ${r.heap_growth_mb} |`);

if (args.includes("--dev")) {
  const server = localServer({ port: Number(process.env.DATASETS_PORT ?? 8799), name: "datasets" });
  const admin = { host: server.bareHost, token: server.secrets.PLATFORM_ADMIN_TOKEN };
  const multipart = (parts) => {
    const boundary = `----registry${Date.now()}`;
    const chunks = [];
    for (const [name, file] of Object.entries(parts)) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.csv"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        readFileSync(file),
        Buffer.from("\r\n"),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
  };
  try {
    server.prepare();
    await server.start();
    const results = [];
    for (const [dataset, upload] of [
      ["sanctions-sdn", multipart({ sdn: files.sdn, alt: files.alt, add: files.add })],
      ["sanctions-un", { body: readFileSync(files.un), contentType: "application/xml" }],
    ]) {
      const t0 = performance.now();
      const res = await server.call({
        ...admin,
        method: "POST",
        path: `/platform/v1/datasets/${dataset}/versions?activate=true`,
        body: upload.body,
        contentType: upload.contentType,
      });
      const accepted = performance.now() - t0;
      if (res.status !== 202) throw new Error(`${dataset}: ${res.status} ${res.text.slice(0, 300)}`);
      const { version } = JSON.parse(res.text).dataset_version;
      let state;
      for (;;) {
        const v = await server.call({ ...admin, path: `/platform/v1/datasets/${dataset}/versions/${version}` });
        state = JSON.parse(v.text).dataset_version;
        if (state.status !== "staging") break;
        await sleep(200);
      }
      results.push({
        dataset,
        mb: mb(upload.body.length),
        status: state.status,
        rows: state.rows,
        runs: Math.ceil(state.rows / ROWS_PER_RUN),
        accepted_ms: Math.round(accepted),
        active_ms: Math.round(performance.now() - t0),
      });
    }
    console.log("\nEnd to end (wrangler dev, upload → validated 202 → queue-driven load → active):\n");
    console.log("| dataset | upload MB | status | rows | queue runs | 202 after ms | active after ms |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of results)
      console.log(
        `| ${r.dataset} | ${r.mb} | ${r.status} | ${r.rows} | ${r.runs} | ${r.accepted_ms} | ${r.active_ms} |`,
      );
  } finally {
    await server.dispose();
  }
}

/**
 * The dataset registry through the platform API with the real bindings: uploads of the official files
 * (streamed to R2, validated, loaded through the DATASETS queue), the shrink refusal, atomic activation under
 * concurrent screening, rollback, the resumable load, and the scheduled fetch with the official URLs stubbed
 * at the fetch boundary.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import destinationRules from "../data/customs/destination-rules.json";
import lexicon from "../data/restrictions/lexicon.json";
import rules from "../data/restrictions/rules.json";
import reducedCurated from "../data/vat/reduced-curated.json";
import vatRates from "../data/vat/vat-rates.json";
import reducedGoods from "../data/vat/vat-reduced-goods.json";
import { baseContext } from "../src/core/context";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { prebuiltIndexKey } from "../src/core/prebuilt-index";
import { type SanctionEntry, unEntries } from "../src/engines/datasets/sanctions";
import { systemClock } from "../src/lib/clock";
import { systemIds } from "../src/lib/ids";
import { UPLOADABLE } from "../src/modules/datasets/catalogue";
import { fetchDueDatasets, monthlyUrl, stageNext } from "../src/modules/datasets/service";
import add from "./fixtures/datasets/add.csv?raw";
import alt from "./fixtures/datasets/alt.csv?raw";
import ecbDaily from "./fixtures/datasets/eurofxref.csv?raw";
import ecbDailyXml from "./fixtures/datasets/eurofxref-daily.xml?raw";
import hsCsv from "./fixtures/datasets/harmonized-system.csv?raw";
import hmrcXml from "./fixtures/datasets/hmrc-exrates-monthly-0626.xml?raw";
import sdn from "./fixtures/datasets/sdn.csv?raw";
import sdnAdvanced from "./fixtures/datasets/sdn_advanced.xml?raw";
import ukXml from "./fixtures/datasets/uk-sanctions-list.xml?raw";
import unXml from "./fixtures/datasets/un-consolidated.xml?raw";
import usitc from "./fixtures/datasets/usitc-tariff.txt?raw";
import usitcBad from "./fixtures/datasets/usitc-tariff-bad.txt?raw";
import { ADMIN_TOKEN, call, loadDataset, setup } from "./helpers";

const deps = { clock: systemClock, ids: systemIds };
const admin = (path: string, opts: Parameters<typeof call>[1] = {}) =>
  call(`/platform/v1${path}`, { token: ADMIN_TOKEN, ...opts });

/** An upload as a client sends it: the bytes with their Content-Length. */
function upload(dataset: string, bytes: ArrayBuffer | string, contentType: string, query = "") {
  const body = typeof bytes === "string" ? new TextEncoder().encode(bytes) : new Uint8Array(bytes);
  return admin(`/datasets/${dataset}/versions${query}`, {
    method: "POST",
    body,
    headers: { "content-type": contentType, "content-length": String(body.byteLength) },
  });
}

async function multipart(files: Record<string, string>, type = "text/csv") {
  const form = new FormData();
  for (const [name, text] of Object.entries(files)) form.append(name, new File([text], name, { type }));
  const res = new Response(form);
  return { bytes: await res.arrayBuffer(), contentType: res.headers.get("content-type") as string };
}

const json = async (res: Response) => (await res.json()) as any;

type Api = Awaited<ReturnType<typeof setup>>["api"];
/** A UK quote of a Chinese T-shirt declared in USD, by entry date (the HMRC rate tests). */
const ukQuote = (api: Api, declared_value: number) => async (entry_date: string) =>
  json(
    await api("/calculate", {
      json: {
        hs_code: "6109.10",
        origin_country: "CN",
        destination_country: "GB",
        declared_value,
        currency: "USD",
        entry_date,
      },
    }),
  );

/** The active version of a dataset and whether its prebuilt index is in R2 (the write is in the background). */
async function prebuiltFor(dataset: string): Promise<{ version: string; stored: boolean }> {
  const row = await env.DB.prepare("SELECT version, imported_at FROM data_sources WHERE dataset = ?")
    .bind(dataset)
    .first<{ version: string; imported_at: string }>();
  if (!row) throw new Error(`no ${dataset} row in data_sources`);
  const key = prebuiltIndexKey(dataset, `${row.version}@${row.imported_at}`);
  for (let i = 0; i < 100; i++) {
    if (await env.ARCHIVE.head(key)) return { version: row.version, stored: true };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { version: row.version, stored: false };
}

async function waitUntilLoaded(dataset: string, version: string) {
  for (let i = 0; i < 200; i++) {
    const body = await json(await admin(`/datasets/${dataset}/versions/${version}`));
    if (body.dataset_version.status !== "staging") return body.dataset_version;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${dataset} ${version} still staging`);
}

async function parsedUn(): Promise<SanctionEntry[]> {
  const out: SanctionEntry[] = [];
  async function* one() {
    yield unXml;
  }
  for await (const e of unEntries(one())) out.push(e);
  return out;
}

async function activeUnNames(): Promise<Set<string>> {
  const rows = await env.DB.prepare(
    `SELECT e.name FROM sanction_entries e JOIN dataset_versions v
       ON v.dataset = 'sanctions-un' AND v.version = e.list_version AND v.status = 'active' WHERE e.list_code = 'UN'`,
  ).all<{ name: string }>();
  return new Set(rows.results.map((r) => r.name));
}

describe("dataset registry", () => {
  it("lists every dataset with its active version; the platform token is required", async () => {
    await loadDataset("sanctions", { fixture: true });
    await loadDataset("fx", { fixture: true });
    await loadDataset("vat", { fixture: true });
    expect((await call("/platform/v1/datasets")).status).toBe(401);
    const body = await json(await admin("/datasets"));
    const byName = Object.fromEntries(body.datasets.map((d: any) => [d.dataset, d]));
    expect(byName["sanctions-sdn"]).toMatchObject({ status: "active", uploadable: true });
    expect(byName["sanctions-sdn"].version).toMatch(/\+fixture$/);
    expect(byName["sanctions-un"]).toMatchObject({ status: "active", uploadable: true });
    expect(byName.fx).toMatchObject({ status: "active", uploadable: true });
    expect(byName.vat).toMatchObject({ status: "active", uploadable: true });
    expect(byName.sanctions).toBeUndefined();
  });

  it("refuses a list that shrinks past the limit unless forced, then activates it atomically and rolls back", async () => {
    resetDatasetCaches();
    await loadDataset("sanctions", { fixture: true });
    const { api } = await setup(["screen:read"]);
    const before = await activeUnNames();
    const next = await parsedUn();
    const gained = next.find((e) => !before.has(e.name)) as SanctionEntry;
    const lost = [...before].find((n) => !next.some((e) => e.name === n)) as string;
    expect(gained && lost).toBeTruthy();
    const screenFor = async (name: string) => json(await api("/screen", { method: "POST", json: { name } }));
    expect((await screenFor(gained.name)).matches.filter((m: any) => m.list_code === "UN")).toEqual([]);

    // The fixture list holds ~40 UN entries; the file 12: refused, with the report saying why.
    const refused = await upload("sanctions-un", unXml, "application/xml");
    expect(refused.status).toBe(422);
    const r = await json(refused);
    expect(r.dataset_version).toMatchObject({ status: "refused" });
    expect(r.dataset_version.report).toMatchObject({
      entries: 12,
      passed: false,
      published_at: "2025-11-18T23:00:09.174Z",
    });
    expect(r.dataset_version.report.checks.find((c: any) => c.check === "shrink").passed).toBe(false);
    expect(r.dataset_version.report.removed).toBeGreaterThan(25);
    expect(await activeUnNames()).toEqual(before);

    const forced = await upload("sanctions-un", unXml, "application/xml", "?force=true");
    expect(forced.status).toBe(202);
    const staged = (await json(forced)).dataset_version;
    expect(staged.version).toMatch(/^2025-11-18\.[0-9a-f]{8}$/);
    expect(staged.report).toMatchObject({ forced: true, passed: true });
    expect(await waitUntilLoaded("sanctions-un", staged.version)).toMatchObject({ status: "staged", staged_rows: 12 });
    // Staged is not active: screening still answers from the old version.
    expect((await screenFor(lost)).matches.some((m: any) => m.list_code === "UN" && m.score === 1)).toBe(true);

    // Activation while screenings run: each answer is wholly the old list or wholly the new one.
    const inFlight = Array.from({ length: 12 }, (_, i) => (i % 2 ? screenFor(lost) : screenFor(gained.name)));
    const activated = await admin(`/datasets/sanctions-un/versions/${staged.version}/activate`, { method: "POST" });
    expect(activated.status).toBe(200);
    for (const answer of await Promise.all(inFlight)) {
      const newList = answer.data_source.version.includes(`UN-${staged.version}`);
      const hitsGained = answer.matches.some((m: any) => m.matched_name === gained.name && m.score === 1);
      const hitsLost = answer.matches.some((m: any) => m.list_code === "UN" && m.score === 1 && m.entry.name === lost);
      if (newList) expect(hitsLost).toBe(false);
      else expect(hitsGained).toBe(false);
    }
    const after = await screenFor(gained.name);
    expect(after.data_source.version).toContain(`UN-${staged.version}`);
    expect(after.matches[0]).toMatchObject({ list_code: "UN", score: 1 });
    expect((await screenFor(lost)).matches.some((m: any) => m.list_code === "UN" && m.entry.name === lost)).toBe(false);

    const list = await json(await admin("/datasets"));
    expect(list.datasets.find((d: any) => d.dataset === "sanctions-un")).toMatchObject({
      version: staged.version,
      rows: 12,
    });

    // Rollback: the previous version's rows were kept, so it is active again at once.
    const back = await admin("/datasets/sanctions-un/rollback", { method: "POST" });
    expect(back.status).toBe(200);
    expect((await json(back)).dataset_version.version).toMatch(/\+fixture$/);
    expect((await screenFor(lost)).matches.some((m: any) => m.list_code === "UN" && m.score === 1)).toBe(true);
    const versions = (await json(await admin("/datasets/sanctions-un/versions"))).versions;
    // The refused attempt under the same name was replaced by the forced one, now retired.
    expect(versions.map((v: any) => [v.version, v.status])).toEqual(
      expect.arrayContaining([
        [staged.version, "retired"],
        [expect.stringMatching(/\+fixture$/), "active"],
      ]),
    );
    expect(versions).toHaveLength(2);
  });

  it("takes OFAC's three files as multipart, activates on request, and answers the same files idempotently", async () => {
    await loadDataset("sanctions", { fixture: true });
    const { bytes, contentType } = await multipart({ sdn, alt, add });
    const res = await upload("sanctions-sdn", bytes, contentType, "?activate=true&version=2026-11-20");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.report).toMatchObject({ entries: 62, passed: true, skipped_records: 0 });
    // The fixture held the first 40 rows and three named entries: the new file adds the rest.
    expect(v.report.added).toBeGreaterThan(15);
    expect(await waitUntilLoaded("sanctions-sdn", "2026-11-20")).toMatchObject({ status: "active", rows: 62 });
    // The activation stored the new lists' screening index before any screen asked for it.
    expect(await prebuiltFor("sanctions")).toMatchObject({ stored: true });
    const gpb = await env.DB.prepare(
      "SELECT name, entry_type FROM sanction_entries WHERE list_code = 'SDN' AND list_version = '2026-11-20' AND source_ref = '17016'",
    ).first<{ name: string; entry_type: string }>();
    expect(gpb).toMatchObject({ entry_type: "unknown" });

    const again = await upload("sanctions-sdn", bytes, contentType, "?version=2026-11-20");
    expect(again.status).toBe(200);
    expect((await json(again)).dataset_version.status).toBe("active");
    const other = await multipart({ sdn });
    const clash = await upload("sanctions-sdn", other.bytes, other.contentType, "?version=2026-11-20");
    expect(clash.status).toBe(409);
    // The archive holds the verbatim upload.
    const audit = await env.DB.prepare(
      "SELECT body_key FROM request_audit WHERE path = '/platform/v1/datasets/sanctions-sdn/versions' ORDER BY created_at LIMIT 1",
    ).first<{ body_key: string | null }>();
    expect(audit?.body_key).toBeTruthy();
    expect((await env.ARCHIVE.head(audit?.body_key as string))?.size).toBe(bytes.byteLength);
  });

  it("loads a version in runs that resume where the last one stopped", async () => {
    await loadDataset("sanctions", { fixture: true });
    const ctx = baseContext(env, deps);
    // Registered directly (no queue message), then staged ten rows per run.
    const key = "test/datasets/resume/sdn.csv";
    await env.ARCHIVE.put(key, sdn);
    const { registerVersion } = await import("../src/modules/datasets/service");
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sdn)))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    const files = [{ part: "sdn", key, size: sdn.length, sha256: digest }];
    const { row } = await registerVersion({
      ctx,
      input: { dataset: "sanctions-sdn", files, version: "resume-test", origin: "upload" },
    });
    // The queue may pick the message up too; runs that overlap leave the rows to one of them.
    let outcome = "more";
    let runs = 0;
    while (outcome === "more" && runs < 20) {
      try {
        outcome = await stageNext({ ctx, input: { dataset: "sanctions-sdn", version: row.version, rowsPerRun: 10 } });
      } catch {
        outcome = "more";
      }
      runs++;
    }
    const count = await env.DB.prepare(
      "SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS d FROM sanction_entries WHERE list_code = 'SDN' AND list_version = 'resume-test'",
    ).first<{ n: number; d: number }>();
    expect(count).toEqual({ n: 60, d: 60 });
    const state = await env.DB.prepare(
      "SELECT status, staged_rows FROM dataset_versions WHERE dataset = 'sanctions-sdn' AND version = 'resume-test'",
    ).first();
    expect(state).toEqual({ status: "staged", staged_rows: 60 });
    expect(runs).toBeGreaterThanOrEqual(2);
  });

  it("refuses bad uploads with clear errors and changes nothing", async () => {
    await loadDataset("sanctions", { fixture: true });
    await loadDataset("tariffs", { fixture: true });
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM dataset_versions").first<{ n: number }>();
    const expectError = async (res: Response, status: number, pattern: RegExp) => {
      expect(res.status).toBe(status);
      const body = await json(res);
      expect(body.success).toBe(false);
      expect(body.message).toMatch(pattern);
    };
    await expectError(await upload("nope", unXml, "application/xml"), 404, /Unknown dataset/);
    await expectError(await upload("tariffs", "a,b\n", "text/csv"), 422, /cannot take uploads/);
    await expectError(await upload("sanctions-un", unXml, "application/json"), 415, /application\/xml/);
    await expectError(
      await upload("sanctions-un", "<CONSOLIDATED_LIST><INDIVIDUALS><INDI", "application/xml"),
      422,
      /not a valid/,
    );
    await expectError(await upload("sanctions-un", "<catalog><book/></catalog>", "text/xml"), 422, /root element/);
    await expectError(await upload("sanctions-sdn", "", "text/csv"), 422, /empty/);
    const unknownField = await multipart({ sdn, extra: "x" });
    await expectError(
      await upload("sanctions-sdn", unknownField.bytes, unknownField.contentType),
      422,
      /Unknown form field/,
    );
    await expectError(
      await admin("/datasets/sanctions-un/versions", {
        method: "POST",
        body: new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(unXml));
            c.close();
          },
        }),
        headers: { "content-type": "application/xml" },
      }),
      411,
      /Content-Length/,
    );
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM dataset_versions").first()).toEqual(before);
    // A CSV that is not OFAC's: parsed records are not SDN rows, so the version is refused.
    const notOfac = await upload("sanctions-sdn", "name,price\nwidget,3\n", "text/csv");
    expect(notOfac.status).toBe(422);
    const refused = (await json(notOfac)).dataset_version;
    expect(refused.report.checks.find((c: any) => c.check === "not_empty").passed).toBe(false);
    await expectError(
      await admin(`/datasets/sanctions-sdn/versions/${refused.version}/activate`, { method: "POST" }),
      409,
      /refused/,
    );
    await expectError(
      await admin("/datasets/sanctions-sdn/versions/none/activate", { method: "POST" }),
      404,
      /Unknown version/,
    );
    await expectError(await admin("/datasets/sanctions-sdn/rollback", { method: "POST" }), 409, /no previous version/);
    await expectError(await admin("/datasets/sanctions-un/versions/none"), 404, /Unknown version/);
  });

  it("scheduled fetch: official URLs through the URL policy, new versions activated, failures reported", async () => {
    await loadDataset("sanctions", { fixture: true });
    const ctx = baseContext(env, deps);
    const asked: string[] = [];
    const official = UPLOADABLE["sanctions-un"]?.officialUrls.xml as string;
    let answer = () => new Response(unXml, { headers: { "content-type": "application/xml" } });
    const fetcher = (async (url: string) => {
      asked.push(String(url));
      return answer();
    }) as unknown as typeof fetch;
    const t0 = Date.parse("2026-11-24T00:00:00Z");

    // The 12-entry file against a ~40-entry list: refused by the shrink check, the active list kept.
    const [refused] = await fetchDueDatasets({ ctx, input: { nowMs: t0, fetcher, datasets: ["sanctions-un"] } });
    expect(asked).toEqual([official]);
    expect(refused).toMatchObject({ dataset: "sanctions-un", outcome: "refused" });
    let list = await json(await admin("/datasets"));
    const un = list.datasets.find((d: any) => d.dataset === "sanctions-un");
    expect(un.version).toMatch(/\+fixture$/);
    expect(un.last_fetch).toMatchObject({ outcome: "refused" });
    expect(un.last_fetch.error).toMatch(/shrink/);

    // Not due again before DATASET_FETCH_HOURS.
    const [notDue] = await fetchDueDatasets({
      ctx,
      input: { nowMs: t0 + 60_000, fetcher, datasets: ["sanctions-un"] },
    });
    expect(notDue?.outcome).toBe("not_due");

    // The publisher fails: reported, nothing changes.
    answer = () => new Response("unavailable", { status: 503 });
    const [failed] = await fetchDueDatasets({
      ctx,
      input: { nowMs: t0 + 7 * 3_600_000, fetcher, datasets: ["sanctions-un"] },
    });
    expect(failed).toMatchObject({ outcome: "failed" });
    expect(failed?.error).toMatch(/503/);

    // A configured URL the policy refuses is never fetched.
    const local = {
      ...ctx,
      env: { ...env, DATASET_URLS: JSON.stringify({ "sanctions-un": { xml: "http://127.0.0.1/x.xml" } }) },
    };
    const n = asked.length;
    const [blocked] = await fetchDueDatasets({
      ctx: local as typeof ctx,
      input: { nowMs: t0 + 14 * 3_600_000, fetcher, datasets: ["sanctions-un"] },
    });
    expect(blocked).toMatchObject({ outcome: "failed" });
    expect(blocked?.error).toMatch(/URL policy/);
    expect(asked.length).toBe(n);

    // With the list at the file's size, the fetched version passes, loads and becomes active by itself.
    await env.DB.prepare(
      "DELETE FROM sanction_entries WHERE list_code = 'UN' AND id NOT IN (SELECT id FROM sanction_entries WHERE list_code = 'UN' LIMIT 12)",
    ).run();
    answer = () => new Response(unXml, { headers: { "content-type": "application/xml" } });
    const [updated] = await fetchDueDatasets({
      ctx,
      input: { nowMs: t0 + 21 * 3_600_000, fetcher, datasets: ["sanctions-un"] },
    });
    expect(updated).toMatchObject({ outcome: "updated" });
    expect(await waitUntilLoaded("sanctions-un", updated?.version as string)).toMatchObject({ status: "active" });
    const [same] = await fetchDueDatasets({
      ctx,
      input: { nowMs: t0 + 28 * 3_600_000, fetcher, datasets: ["sanctions-un"] },
    });
    expect(same).toMatchObject({ outcome: "unchanged", version: updated?.version });
    list = await json(await admin("/datasets"));
    expect(list.datasets.find((d: any) => d.dataset === "sanctions-un").last_fetch.outcome).toBe("unchanged");

    // The cron fetches one list per run: a full list is too much to carry several in one invocation.
    const before = asked.length;
    const one = await fetchDueDatasets({ ctx, input: { nowMs: t0 + 35 * 3_600_000, fetcher, limit: 1 } });
    expect(one.filter((r) => r.outcome !== "not_due")).toHaveLength(1);
    const urls = asked.slice(before);
    const sdnUrls = Object.values(UPLOADABLE["sanctions-sdn"]?.officialUrls ?? {});
    expect(urls).toEqual(sdnUrls.slice(0, urls.length));

    // HMRC publishes a file per month: the fetch asks for the month it runs in.
    const hmrcAsked = asked.length;
    answer = () => new Response(hmrcXml, { headers: { "content-type": "application/xml" } });
    const [hmrc] = await fetchDueDatasets({
      ctx,
      input: { nowMs: Date.parse("2026-06-03T05:00:00Z"), fetcher, datasets: ["fx-hmrc"] },
    });
    expect(asked.slice(hmrcAsked)).toEqual([
      "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_2026-6.xml",
    ]);
    expect(hmrc).toMatchObject({ outcome: "updated" });
    expect(monthlyUrl("x/{yyyy}/{mm}/{m}", Date.parse("2026-11-30T23:59:59Z"))).toBe("x/2026/11/11");
  });

  it("takes a new restriction rule set: validated rule by rule, activated atomically, rolled back", async () => {
    await loadDataset("restrictions");
    const { api } = await setup(["restrict:read"]);
    const check = async () =>
      json(
        await api("/restrict", {
          json: { destination_country: "NZ", items: [{ sku: "Q", title: "Quokka plush replica passport holder" }] },
        }),
      );
    const before = await check();
    expect(before.match_count).toBe(0);
    const maxId = Math.max(...(rules as { id: number }[]).map((r) => r.id));
    const added = {
      ...(rules as Record<string, unknown>[])[0],
      id: maxId + 1,
      imposing_country: "NZ",
      direction: "IMPORT",
      rule_type: "prohibition",
      hs_prefix: null,
      keywords: ["replica passport holder"],
      exclude_keywords: null,
      title: "Test rule: replica passport holders",
      source_url: "https://www.customs.govt.nz/personal/prohibited-and-restricted-items/",
      source_ref: "NZ Customs prohibited items",
    };
    const body = JSON.stringify([...(rules as unknown[]), added]);
    const ruleForm = async (rulesText: string) => {
      const form = new FormData();
      form.append("rules", new File([rulesText], "rules.json", { type: "application/json" }));
      form.append("lexicon", new File([JSON.stringify(lexicon)], "lexicon.json", { type: "application/json" }));
      const r = new Response(form);
      return { bytes: await r.arrayBuffer(), contentType: r.headers.get("content-type") as string };
    };
    const { bytes, contentType } = await ruleForm(body);
    const res = await upload("restrictions", bytes, contentType, "?version=rules-test&activate=true");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.report).toMatchObject({ added: 1, removed: 0, changed: 0, passed: true });
    expect(await waitUntilLoaded("restrictions", "rules-test")).toMatchObject({ status: "active" });
    const after = await check();
    expect(after.items[0].restrictions.map((m: any) => m.id)).toContain(`restriction_${maxId + 1}`);
    expect(after.coverage.data_version).toBe("rules-test");

    // A rule that does not fit the schema, and a rule set without its vocabulary, are refused.
    const bad = JSON.stringify([
      ...(rules as unknown[]).slice(1),
      { ...added, source_url: "ftp://x", rule_type: "ban" },
    ]);
    const badForm = await ruleForm(bad);
    const refused = await upload("restrictions", badForm.bytes, badForm.contentType, "?version=rules-bad");
    expect(refused.status).toBe(422);
    const report = (await json(refused)).dataset_version.report;
    expect(report.issues[0].message).toMatch(/source_url/);
    expect(report.issues[0].message).toMatch(/rule_type/);
    const noLexicon = await upload("restrictions", body, "application/json", "?version=rules-nolex");
    expect(noLexicon.status).toBe(422);
    expect((await json(noLexicon)).message).toMatch(/unknown concept/);

    const back = await admin("/datasets/restrictions/rollback", { method: "POST" });
    expect(back.status).toBe(200);
    expect((await check()).match_count).toBe(0);
  });

  it("FX: the ECB's daily file adds its day to the history, and calculate converts with the new version", async () => {
    await loadDataset("fx", { fixture: true });
    await loadDataset("tariffs", { fixture: true });
    await loadDataset("vat", { fixture: true });
    await loadDataset("customs_rules", { fixture: true });
    const { api } = await setup(["calculate:read"]);
    // The active history without its last day (13 April 2026), which the ECB's daily file then brings.
    await env.DB.prepare("DELETE FROM fx_rates WHERE date = '2026-04-13'").run();
    resetDatasetCaches();
    const quote = async () =>
      json(
        await api("/calculate", {
          json: {
            hs_code: "6109.10",
            origin_country: "CN",
            destination_country: "DE",
            declared_value: 100,
            currency: "USD",
            // Germany converts at the EU customs rate: for May, the ECB rate of 2026-04-22 or the last before it.
            entry_date: "2026-05-05",
          },
        }),
      );
    const before = await quote();
    expect(before.currencies).toMatchObject({ rate_date: "2026-04-10" });

    const res = await upload("fx", ecbDaily, "text/csv", "?activate=true");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.version).toMatch(/^2026-04-13\./);
    expect(v.report).toMatchObject({ added: 29, removed: 0, changed: 0, published_at: "2026-04-13", passed: true });
    const loaded = await waitUntilLoaded("fx", v.version);
    expect(loaded.status).toBe("active");
    const carried = await env.DB.prepare("SELECT COUNT(*) AS n FROM fx_rates WHERE version = ?")
      .bind(v.version)
      .first<{ n: number }>();
    expect(carried?.n).toBe(loaded.rows);
    expect(loaded.rows).toBe(v.report.previous_entries + 29);

    const after = await quote();
    expect(after.currencies).toMatchObject({ rate_date: "2026-04-13" });
    expect(after.currencies.source).toContain(`fx dataset version ${v.version}`);

    // The same day as XML changes nothing: every rate is already there.
    const xml = await upload("fx", ecbDailyXml, "application/xml");
    expect(xml.status).toBe(202);
    expect((await json(xml)).dataset_version.report).toMatchObject({ added: 0, changed: 0, passed: true });
  });

  it("FX: HMRC's monthly rates convert UK quotes for their month; other months keep the ECB rate", async () => {
    await loadDataset("fx", { fixture: true });
    await loadDataset("tariffs", { fixture: true });
    await loadDataset("vat", { fixture: true });
    await loadDataset("customs_rules", { fixture: true });
    // Start without HMRC rates (the scheduled-fetch test may have loaded a month).
    for (const sql of [
      "DELETE FROM dataset_versions WHERE dataset = 'fx-hmrc'",
      "DELETE FROM fx_customs_rates",
      "DELETE FROM data_sources WHERE dataset = 'fx-hmrc'",
    ])
      await env.DB.prepare(sql).run();
    resetDatasetCaches();
    const quote = ukQuote((await setup(["calculate:read"])).api, 1250);
    expect((await quote("2026-06-15")).currencies.source).toMatch(/^ECB reference rate/);

    const res = await upload("fx-hmrc", hmrcXml, "application/xml", "?activate=true");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.report).toMatchObject({ added: 4, removed: 0, published_at: "2026-06-01", passed: true });
    expect(await waitUntilLoaded("fx-hmrc", v.version)).toMatchObject({ status: "active", rows: 4 });

    // The fixture's 1 GBP = 1.25 USD: 1,250 USD is 1,000 GBP; UK duty 12% = 120; VAT 20% × 1,120 = 224.
    const june = await quote("2026-06-15");
    expect(june.currencies).toMatchObject({ rate_date: "2026-06-01", exchange_rate: 0.8 });
    expect(june.currencies.source).toContain(
      "HMRC monthly exchange rates for customs and VAT, period 2026-06-01 to 2026-06-30",
    );
    expect(june.currencies.source).toContain(`fx-hmrc dataset version ${v.version}`);
    expect(june.data_sources["fx-hmrc"]).toMatchObject({ version: v.version });
    expect(june.data_sources.fx).toBeUndefined();
    expect(june.totals).toMatchObject({ duty: 120, vat: 224 });
    expect(june.notes.join(" ")).not.toMatch(/latest ECB reference rate/);
    // July has no HMRC period in the data: the ECB rate of the day, as before.
    const july1 = await quote("2026-07-02");
    expect(july1.currencies.source).toMatch(/^ECB reference rate/);
    expect(Object.keys(july1.data_sources)).toContain("fx");

    // Another month's file adds its period to the history (the fixture's June, moved to July).
    const july = hmrcXml.replace("01/Jun/2026 to 30/Jun/2026", "01/Jul/2026 to 31/Jul/2026");
    const next = await upload("fx-hmrc", july, "application/xml", "?activate=true");
    const v2 = (await json(next)).dataset_version;
    expect(v2.report).toMatchObject({ added: 4, passed: true, published_at: "2026-07-01" });
    expect(await waitUntilLoaded("fx-hmrc", v2.version)).toMatchObject({ status: "active", rows: 8 });
    expect((await quote("2026-07-02")).currencies.source).toContain("period 2026-07-01 to 2026-07-31");
    expect((await quote("2026-06-15")).currencies.source).toContain("period 2026-06-01 to 2026-06-30");

    const bad = await upload("fx-hmrc", "<gesmes:Envelope/>", "application/xml");
    expect(bad.status).toBe(422);
  });

  it("FX: the bundled HMRC history converts a UK quote at the month's rate, and an upload extends it", async () => {
    await loadDataset("fx", { fixture: true });
    await loadDataset("tariffs", { fixture: true });
    await loadDataset("vat", { fixture: true });
    await loadDataset("customs_rules", { fixture: true });
    await loadDataset("fx-hmrc", { fixture: true });
    resetDatasetCaches();
    const quote = ukQuote((await setup(["calculate:read"])).api, 1345.6);
    // HMRC's rate for October 2026: 1 GBP = 1.3456 USD, so 1,345.60 USD is 1,000 GBP (data/fx/hmrc-monthly.csv).
    const october = await quote("2026-10-15");
    expect(october.currencies).toMatchObject({ rate_date: "2026-10-01" });
    expect(october.currencies.source).toContain("period 2026-10-01 to 2026-10-31");
    expect(october.currencies.source).toContain("fx-hmrc dataset version 2026-10+fixture");
    expect(october.data_sources["fx-hmrc"]).toMatchObject({ version: "2026-10+fixture" });
    // UK duty 12% × 1,000 = 120; VAT 20% × 1,120 = 224.
    expect(october.totals).toMatchObject({ duty: 120, vat: 224 });
    // September's own rate (1 GBP = 1.3554 USD): 1,345.60 USD is 992.77 GBP.
    const september = await quote("2026-09-10");
    expect(september.currencies.source).toContain("period 2026-09-01 to 2026-09-30");
    expect(september.totals.duty).toBeCloseTo(119.13, 2);
    // A month after the bundled history: the ECB rule, until the registry holds that month.
    expect((await quote("2026-11-16")).currencies.source).toMatch(/^ECB reference rate/);
    const november = hmrcXml.replace("01/Jun/2026 to 30/Jun/2026", "01/Nov/2026 to 30/Nov/2026");
    const v = (await json(await upload("fx-hmrc", november, "application/xml", "?activate=true"))).dataset_version;
    expect(await waitUntilLoaded("fx-hmrc", v.version)).toMatchObject({ status: "active" });
    expect((await quote("2026-11-16")).currencies.source).toContain("period 2026-11-01 to 2026-11-30");
    // The upload keeps the bundled months.
    expect((await quote("2026-10-15")).currencies.source).toContain("period 2026-10-01 to 2026-10-31");
  });

  it("a list new to the deployment (the UK's) loads through the same path and joins screening", async () => {
    resetDatasetCaches();
    await loadDataset("sanctions", { fixture: true });
    const { api } = await setup(["screen:read"]);
    const res = await upload("sanctions-uk", ukXml, "application/xml", "?activate=true");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.report).toMatchObject({ entries: 3, previous_version: null, passed: true, published_at: "08/10/2026" });
    expect(v.version).toMatch(/^2026-10-08\.[0-9a-f]{8}$/);
    expect(await waitUntilLoaded("sanctions-uk", v.version)).toMatchObject({ status: "active" });
    const hit = await json(await api("/screen", { method: "POST", json: { name: "PJSC Rosneft Oil Company" } }));
    expect(hit.searched_lists).toEqual(["SDN", "UK", "UN"]);
    expect(hit.lists.find((l: any) => l.code === "UK")).toEqual({
      code: "UK",
      version: v.version,
      published_at: "08/10/2026",
    });
    expect(hit.matches[0]).toMatchObject({ list_code: "UK", score: 1, entry: { source_ref: "RUS3064" } });
    expect(hit.data_source.version).toContain(`UK-${v.version}`);
  });

  it("VAT: an edited rate file is diffed, staged beside the live table, swapped in atomically and rolled back", async () => {
    for (const d of ["fx", "tariffs", "vat", "customs_rules"]) await loadDataset(d, { fixture: true });
    resetDatasetCaches();
    const { api } = await setup(["calculate:read"]);
    const quote = async () =>
      json(
        await api("/calculate", {
          json: {
            hs_code: "6109.10",
            origin_country: "CN",
            destination_country: "DE",
            declared_value: 1000,
            currency: "EUR",
          },
        }),
      );
    expect((await quote()).vat.rate).toBe(19);
    const bundled = (await json(await admin("/datasets"))).datasets.find((d: any) => d.dataset === "vat").version;

    // Germany's standard rate raised to 21 % in the current row: one changed row, nothing else.
    const rates = structuredClone(vatRates) as { columns: string[]; rows: unknown[][] };
    const de = rates.rows.find((r) => r[0] === "DE" && r[1] === "" && r[4] === null) as unknown[];
    de[5] = "21";
    const files = {
      rates: JSON.stringify(rates),
      rules: JSON.stringify(destinationRules),
      reduced: JSON.stringify(reducedGoods),
      curated: JSON.stringify(reducedCurated),
    };
    const form = await multipart(files, "application/json");
    const res = await upload("vat", form.bytes, form.contentType);
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.report).toMatchObject({ added: 0, removed: 0, changed: 1, passed: true, format: "vat-json" });
    expect(v.report.by_type).toMatchObject({ calc_destination_rules: destinationRules.rows.length });
    const staged = await waitUntilLoaded("vat", v.version);
    expect(staged.status).toBe("staged");
    // Staged, not active: quotes still read the live table.
    expect((await quote()).vat.rate).toBe(19);

    // Quotes racing the activation see 19 % or 21 %, never a missing rate.
    resetDatasetCaches();
    const racing = Array.from({ length: 6 }, () => quote());
    const activated = admin(`/datasets/vat/versions/${v.version}/activate`, { method: "POST" });
    const seen = await Promise.all(racing);
    expect((await activated).status).toBe(200);
    for (const q of seen) expect([19, 21]).toContain(q.vat.rate);
    resetDatasetCaches();
    const raised = await quote();
    expect(raised.vat.rate).toBe(21);
    // The quote names the VAT version it read beside the tariff's.
    expect(raised.data_sources.vat).toMatchObject({ version: v.version });
    expect(raised.data_sources.tariffs.version).toBe(raised.data_source.version);
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM calc_vat_rates").first<{ n: number }>();
    expect(live?.n).toBe(vatRates.rows.length);
    const source = await env.DB.prepare("SELECT version FROM data_sources WHERE dataset = 'vat'").first();
    expect(source).toEqual({ version: v.version });

    // Rollback: the bundled rows, kept in staging when the upload was swapped in, come back.
    const back = await admin("/datasets/vat/rollback", { method: "POST" });
    expect(back.status).toBe(200);
    expect((await json(back)).dataset_version.version).toBe(bundled);
    resetDatasetCaches();
    expect((await quote()).vat.rate).toBe(19);
    expect(await env.DB.prepare("SELECT version FROM data_sources WHERE dataset = 'vat'").first()).toEqual({
      version: bundled,
    });
  });

  it("VAT and customs rules: a row that does not fit refuses the version, a missing file is a 422, nothing changes", async () => {
    for (const d of ["vat", "customs_rules"]) await loadDataset(d, { fixture: true });
    const count = () => env.DB.prepare("SELECT COUNT(*) AS n FROM calc_vat_rates").first<{ n: number }>();
    const before = await count();
    const rates = structuredClone(vatRates) as { columns: string[]; rows: unknown[][] };
    (rates.rows[3] as unknown[])[5] = "nineteen";
    const bad = await multipart(
      { rates: JSON.stringify(rates), rules: JSON.stringify(destinationRules) },
      "application/json",
    );
    const refused = await upload("vat", bad.bytes, bad.contentType);
    expect(refused.status).toBe(422);
    const r = (await json(refused)).dataset_version;
    expect(r.status).toBe("refused");
    expect(r.report.issues[0].message).toMatch(/vat-rates row 4: 5: a decimal number/);
    expect(r.report.checks.find((c: any) => c.check === "records_parse").passed).toBe(false);

    const noRules = await multipart({ rates: JSON.stringify(vatRates) }, "application/json");
    const missing = await upload("vat", noRules.bytes, noRules.contentType);
    expect(missing.status).toBe(422);
    expect((await json(missing)).message).toMatch(/Missing file `rules`/);
    const wrongShape = await multipart({ de_minimis: "[]", fees: "{}", excise: '{"rows": []}' }, "application/json");
    const shape = await upload("customs_rules", wrongShape.bytes, wrongShape.contentType);
    expect(shape.status).toBe(422);
    expect((await json(shape)).message).toMatch(/de-minimis.json: expected \{"rows"/);
    expect(await count()).toEqual(before);
  });

  it("tariffs-us: a USITC edition replaces the US lines only, after the shrink check; rollback restores them", async () => {
    for (const d of ["fx", "tariffs", "vat", "customs_rules"]) await loadDataset(d, { fixture: true });
    resetDatasetCaches();
    const { api } = await setup(["calculate:read"]);
    const quote = async (hs: string, destination = "US") =>
      json(
        await api("/calculate", {
          json: {
            hs_code: hs,
            origin_country: "VN",
            destination_country: destination,
            declared_value: 1000,
            currency: "USD",
            entry_date: "2026-03-02",
          },
        }),
      );
    // Each schedule of the bundle has its own registry row; only the US's takes uploads.
    const listed = Object.fromEntries((await json(await admin("/datasets"))).datasets.map((d: any) => [d.dataset, d]));
    for (const d of [
      "tariffs-gb",
      "tariffs-eu",
      "tariffs-au",
      "tariffs-ca",
      "tariffs-jp",
      "tariffs-sg",
      "tariffs-hk",
      "measures-us",
    ])
      expect(listed[d], d).toMatchObject({
        status: "active",
        uploadable: false,
        version: expect.stringMatching(/\+fixture$/),
      });
    expect(listed["tariffs-us"]).toMatchObject({ status: "active", uploadable: true });
    const before = await quote("6109.10.00");
    const mfn = (q: any) => q.estimated_duties.normal_tariff.tariffs[0];
    expect(mfn(before)).toMatchObject({ name: "MFN duty (HTS 6109.10.00)", rate: "16.5%" });
    expect(before.data_source.version).toMatch(/\+fixture$/);
    const uk = mfn(await quote("6109.10.00", "GB"));
    const usBefore = await env.DB.prepare("SELECT COUNT(*) AS n FROM calc_tariff_lines WHERE schedule = 'US'").first<{
      n: number;
    }>();

    // A record that does not read refuses the version (a skipped line would quote as "no rate").
    const badRes = await upload("tariffs-us", usitcBad, "text/plain");
    expect(badRes.status).toBe(422);
    expect((await json(badRes)).dataset_version.report.issues[0].message).toMatch(/hts8 "6109901" is not 8 digits/);

    // Four lines against the fixture's hundreds: refused as a shrink, then forced.
    const shrink = await upload("tariffs-us", usitc, "text/plain");
    expect(shrink.status).toBe(422);
    expect((await json(shrink)).dataset_version.report.checks.find((c: any) => c.check === "shrink").passed).toBe(
      false,
    );
    const forced = await upload("tariffs-us", usitc, "text/plain", "?force=true&activate=true");
    expect(forced.status).toBe(202);
    const v = (await json(forced)).dataset_version;
    expect(v.report).toMatchObject({ entries: 4, format: "usitc-tariff", forced: true });
    expect(v.report.changed).toBe(1); // 6109.10.00: 16.5 % → 18 %; the other lines as bundled
    expect((await waitUntilLoaded("tariffs-us", v.version)).status).toBe("active");

    resetDatasetCaches();
    const after = await quote("6109.10.00");
    expect(mfn(after)).toMatchObject({ name: "MFN duty (HTS 6109.10.00)", rate: "18%" });
    expect(after.data_source).toMatchObject({ version: v.version });
    expect(after.data_source.source).toContain("USITC tariff database");
    // Only the US schedule was replaced: a US line not in the file is gone, the UK's lines are untouched.
    expect((await quote("6110.20.20")).rate_found).toBe(false);
    expect(mfn(await quote("6109.10.00", "GB"))).toEqual(uk);

    // No plain file to fetch by default; a URL the deployment names in DATASET_URLS is fetched like the others.
    const ctx = baseContext(env, deps);
    const t0 = Date.parse("2026-12-01T00:00:00Z");
    const fetcher = (async () =>
      new Response(usitc, { headers: { "content-type": "text/plain" } })) as unknown as typeof fetch;
    expect(await fetchDueDatasets({ ctx, input: { nowMs: t0, fetcher, datasets: ["tariffs-us"] } })).toEqual([]);
    const named = baseContext(
      {
        ...env,
        DATASET_URLS: JSON.stringify({ "tariffs-us": { tariff: "https://www.usitc.gov/tariff_2026.txt" } }),
      } as typeof env,
      deps,
    );
    const [sameFile] = await fetchDueDatasets({ ctx: named, input: { nowMs: t0, fetcher, datasets: ["tariffs-us"] } });
    expect(sameFile).toMatchObject({ dataset: "tariffs-us", outcome: "unchanged" });

    expect((await admin("/datasets/tariffs-us/rollback", { method: "POST" })).status).toBe(200);
    resetDatasetCaches();
    expect(mfn(await quote("6109.10.00"))).toMatchObject({ rate: "16.5%" });
    expect((await quote("6110.20.20")).rate_found).toBe(true);
    const usAfter = await env.DB.prepare("SELECT COUNT(*) AS n FROM calc_tariff_lines WHERE schedule = 'US'").first();
    expect(usAfter).toEqual(usBefore);
  });

  // Two classification index builds (the swapped nomenclature and the restored one), each training the rulings'
  // heading and subheading models: longer than the default timeout on a slow host.
  it("hs: a nomenclature file is checked as a tree, swapped in, classification rebuilds on it, rollback restores", async () => {
    await loadDataset("hs", { fixture: true });
    resetDatasetCaches();
    const { api } = await setup(["classify:read"]);
    const nomenclature = () => env.DB.prepare("SELECT COUNT(*) AS n FROM hs_nomenclature").first<{ n: number }>();
    const bundledCount = await nomenclature();
    const classifyVersion = async () =>
      (
        await json(
          await api("/classify", {
            json: { description: "Men's cotton crew neck t-shirt", destination_country: "US" },
          }),
        )
      ).data_source.version;
    const bundled = await classifyVersion();
    expect(bundled).toContain("hs2022");

    // A subheading filed under the wrong heading, and a heading whose chapter is missing: refused.
    const broken = hsCsv.replace("XI,610910,", "XI,610910x,").replace(/^XII,64,.*\n/m, "");
    const refused = await upload("hs", broken, "text/csv");
    expect(refused.status).toBe(422);
    const messages = (await json(refused)).dataset_version.report.issues.map((i: any) => i.message);
    expect(messages).toContain('hscode "610910x" is not 2, 4 or 6 digits');
    expect(messages.some((m: string) => /^6401: parent 64 is not in the file$/.test(m))).toBe(true);

    // Chapters 61 and 64 only (the fixture holds eleven chapters): a shrink, so forced.
    const res = await upload("hs", hsCsv, "text/csv", "?force=true&activate=true");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.report).toMatchObject({ entries: 156, format: "hs-csv", changed: 0, added: 0 });
    expect((await waitUntilLoaded("hs", v.version)).status).toBe("active");
    expect((await nomenclature())?.n).toBe(156);
    // The activation stored the new version's index before any classification asked for it.
    expect(await prebuiltFor("hs")).toMatchObject({ version: v.version, stored: true });
    expect(await classifyVersion()).toBe(v.version);

    expect((await admin("/datasets/hs/rollback", { method: "POST" })).status).toBe(200);
    expect(await nomenclature()).toEqual(bundledCount);
    expect(await classifyVersion()).toBe(bundled);
  }, 90_000);

  it("takes OFAC's advanced XML for the same list: names in every script, documents in the remarks", async () => {
    await loadDataset("sanctions", { fixture: true });
    resetDatasetCaches();
    const { api } = await setup(["screen:read"]);
    const screen = async (name: string) =>
      (await json(await api("/screen", { method: "POST", json: { name } }))).matches.filter(
        (m: any) => m.list_code === "SDN",
      );
    // The bundled list knows Gazprombank in Latin letters only: the Cyrillic query matches by transliteration.
    const before = (await screen("ГАЗПРОМБАНК"))[0];
    expect(before.score).toBeLessThan(1);

    // Both layouts at once is ambiguous: refused before anything is read.
    const both = await multipart({ sdn, advanced: sdnAdvanced });
    const mixed = await upload("sanctions-sdn", both.bytes, both.contentType);
    expect(mixed.status).toBe(422);
    expect((await json(mixed)).message).toMatch(/advanced XML alone or as the CSV files/);

    const res = await upload("sanctions-sdn", sdnAdvanced, "application/xml", "?force=true&activate=true");
    expect(res.status).toBe(202);
    const v = (await json(res)).dataset_version;
    expect(v.version).toMatch(/^2024-05-03\./);
    expect(v.report).toMatchObject({ entries: 3, skipped_records: 1, published_at: "2024-05-03", forced: true });
    expect(v.report.issues[0].message).toBe("DistinctParty 99999: no name");
    expect((await waitUntilLoaded("sanctions-sdn", v.version)).status).toBe("active");
    const row = await env.DB.prepare(
      "SELECT name, entry_type, programs, remarks FROM sanction_entries WHERE list_version = ? AND source_ref = '2676'",
    )
      .bind(v.version)
      .first<Record<string, string>>();
    expect(row).toMatchObject({ name: "AL ZAWAHIRI, Dr. Ayman", entry_type: "individual", programs: '["SDGT"]' });
    expect(row?.remarks).toContain("Passport 1084010 (Egypt)");

    resetDatasetCaches();
    // The advanced file names it in Cyrillic too: now an exact match on that alias.
    const cyrillic = (await screen("ГАЗПРОМБАНК"))[0];
    expect(cyrillic.entry).toMatchObject({ name: "GAZPROMBANK JOINT STOCK COMPANY" });
    expect(cyrillic.score).toBeGreaterThan(before.score);
    // The identity documents are in the remarks, where identifiers are indexed: the passport number finds him.
    const byPassport = await screen("Passport 1084010");
    expect(byPassport[0]).toMatchObject({ score: 1, entry: { name: "AL ZAWAHIRI, Dr. Ayman" } });
    // The scheduled fetch can take the advanced XML instead of the CSV trio (DATASET_URLS names it alone).
    const url = "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML";
    const asked: string[] = [];
    const fetcher = (async (u: string) => {
      asked.push(String(u));
      return new Response(sdnAdvanced, { headers: { "content-type": "application/xml" } });
    }) as unknown as typeof fetch;
    const ctx = baseContext(
      { ...env, DATASET_URLS: JSON.stringify({ "sanctions-sdn": { advanced: url } }) } as typeof env,
      deps,
    );
    const [fetched] = await fetchDueDatasets({
      ctx,
      input: { nowMs: Date.parse("2026-11-30T00:00:00Z"), fetcher, datasets: ["sanctions-sdn"] },
    });
    expect(asked).toEqual([url]);
    // The same file as the active version: nothing new.
    expect(fetched).toMatchObject({ dataset: "sanctions-sdn", outcome: "unchanged" });
  });
});

/**
 * Consignments and webhooks (run by `npm run bench`).
 *
 * requests(): create a consignment of 10 parcels × 10 items, read one back, and run its compliance pass
 * (every party screened, 100 items checked against the restriction rules, the landed cost of 100 lines).
 * report(): webhook latency under wrangler dev, from a consignment create's response to the local receiver
 * getting the signed POST (outbox row in the create's batch → queue → consumer → POST), and the deliveries
 * per second the consumer sustains for a burst of creates.
 */
import { createServer } from "node:http";

export const area = "consignments";

const item = (p, i) => ({
  sku: `SKU-${p}-${i}`,
  title: `Cotton T-shirt ${i}`,
  quantity: 2,
  unit_value: 12.5,
  currency_code: "GBP",
  country_of_origin: "PT",
  hs_code: "6109.10",
  order_ref: "ORD-1",
});
export const bigConsignment = (ref) => ({
  shipment_ref: ref,
  sender: { company_name: "Acme Ltd", address_1: "1 High St", city: "London", country_code: "GB" },
  receiver: { company_name: "Buyer Inc", address_1: "5 Main St", city: "Austin", country_code: "US" },
  orders: [{ order_ref: "ORD-1", amount: 2500, currency_code: "GBP" }],
  parcels: Array.from({ length: 10 }, (_, p) => ({
    weight_value: 1.5,
    barcode: `BC-${ref}-${p}`,
    items: Array.from({ length: 10 }, (_, i) => item(p, i)),
  })),
});

let receiver;
const received = []; // { id, at }

export async function setup({ call }) {
  const created = await call("POST", "/admin/api/v1/consignments", bigConsignment("BENCH-READ"));
  if (created.status !== 201) throw new Error(`consignment create: ${created.status} ${JSON.stringify(created.json)}`);
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push({
        id: req.headers["webhook-id"],
        at: performance.now(),
        signed: Boolean(req.headers["webhook-signature"]),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
  return { id: created.json.data.consignment.id, port: receiver.address().port };
}

export function requests(ctx) {
  return [
    {
      label: "POST /consignments (10 parcels × 10 items)",
      method: "POST",
      path: "/admin/api/v1/consignments",
      body: bigConsignment("BENCH-LOAD"),
    },
    { label: "GET /consignments/{id} (10 × 10)", method: "GET", path: `/admin/api/v1/consignments/${ctx.id}` },
    {
      label: "POST /consignments/{id}/compliance-check (10 × 10)",
      method: "POST",
      path: `/admin/api/v1/consignments/${ctx.id}/compliance-check`,
    },
  ];
}

const waitFor = async (predicate, ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
};

export async function report({ call, context }) {
  const hook = await call("POST", "/admin/api/v1/settings/webhooks", {
    url: `http://127.0.0.1:${context.port}/hook`,
    events: ["consignment.created"],
  });
  if (hook.status !== 201) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hook.json)}`);
  const latencies = [];
  for (let i = 0; i < 10; i++) {
    const before = received.length;
    const t0 = performance.now();
    const res = await call("POST", "/admin/api/v1/consignments", { shipment_ref: `HOOK-${i}` });
    if (res.status !== 201) throw new Error(`create: ${res.status}`);
    const tResp = performance.now();
    if (!(await waitFor(() => received.length > before, 30_000))) throw new Error("no delivery within 30 s");
    latencies.push({ total: received.at(-1).at - t0, afterResponse: received.at(-1).at - tResp });
  }
  const burst = 200;
  const before = received.length;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: burst }, (_, i) => call("POST", "/admin/api/v1/consignments", { shipment_ref: `BURST-${i}` })),
  );
  const ok = await waitFor(() => received.length >= before + burst, 120_000);
  const elapsed = (received.at(-1).at - t0) / 1000;
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const p = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const after = latencies.map((l) => l.afterResponse);
  return [
    "Webhook delivery under `wrangler dev` (local queue, consumer in the same Worker, receiver a Node server on loopback).",
    "",
    "| measure | value |",
    "| --- | --- |",
    `| create response → signed POST received, p50 / max of 10 | ${p(after, 0.5).toFixed(0)} ms / ${Math.max(...after).toFixed(0)} ms |`,
    `| burst of ${burst} creates: all delivered | ${ok ? "yes" : "NO"} in ${elapsed.toFixed(1)} s → ${(burst / elapsed).toFixed(0)} deliveries/s (creates and deliveries share the 2 cores) |`,
    `| every POST carried webhook-signature | ${received.every((r) => r.signed) ? "yes" : "NO"} |`,
  ].join("\n");
}

export async function teardown() {
  await new Promise((r) => receiver?.close(r));
}

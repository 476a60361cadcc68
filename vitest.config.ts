import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { datasetStatements, loadDatasetModules } from "./scripts/data/lib.mjs";
import { docsAssets } from "./scripts/docs-assets.mjs";

/**
 * Reference data for the tests, as SQL statements per dataset (full and fixture slice), served to the Worker by a
 * service binding that runs here in Node; test files load what they need with `loadDataset()` (test/helpers.ts).
 * A plain binding would copy all of it (about 38 MB) into every test file's workerd at start, whether used or not.
 */
async function testData(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const mod of await loadDatasetModules()) {
    out[mod.dataset] = await datasetStatements(mod);
    out[`${mod.dataset}:fixture`] = await datasetStatements(mod, { fixture: true });
  }
  return out;
}

export default defineConfig(async () => {
  // wrangler.jsonc names public/ as the static assets directory: it must exist before the Worker starts.
  docsAssets();
  const migrations = await readD1Migrations("./migrations");
  const data = await testData();
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: {
          // Test-only secrets; the real ones come from `wrangler secret put` or .dev.vars.
          bindings: {
            TEST_MIGRATIONS: migrations,
            PLATFORM_ADMIN_TOKEN: "test-platform-admin-token",
            TOKEN_SIGNING_SECRET: "test-token-signing-secret-0123456789abcdef",
            // Two keys: k2 current, k1 still opening values sealed before a rotation (test/webhooks.test.ts).
            WEBHOOK_SECRET_KEYS:
              "k2:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8,k1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8",
            // Every test request waits for its audit flush (waitOnExecutionContext): keep the window short.
            AUDIT_FLUSH_MS: "2",
            // wrangler.jsonc is production-safe; the suite runs as a development server does.
            ENVIRONMENT: "development",
            // The stand-in model's slow answer (3 s) must run past the model time limit.
            AI_TIMEOUT_MS: "500",
          },
          // Workers AI is a remote model service: the suite binds a deterministic stand-in with its run() shape.
          workers: [
            {
              name: "workers-ai-fake",
              modules: true,
              scriptPath: "./test/fakes/workers-ai.js",
              compatibilityDate: "2026-11-01",
            },
          ],
          serviceBindings: {
            AI: "workers-ai-fake",
            // GET /{dataset} or /{dataset}:fixture → the statements as a JSON array (404 for an unknown name).
            TEST_DATA: async (request: Request) => {
              const name = decodeURIComponent(new URL(request.url).pathname.slice(1));
              const statements = data[name];
              return statements ? Response.json(statements) : new Response(`unknown dataset ${name}`, { status: 404 });
            },
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      testTimeout: 20_000,
    },
  };
});

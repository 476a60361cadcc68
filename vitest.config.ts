import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
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

import type { D1Migration } from "@cloudflare/vitest-plugin";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** SQL statements per dataset: GET /{name} (full) or /{name}:fixture (slice), from scripts/data. */
      TEST_DATA: Fetcher;
    }
  }
}

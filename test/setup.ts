import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// The same migration files wrangler applies; idempotent, so every test file may run it.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

import { defineConfig } from "drizzle-kit";

// Migrations are generated here and applied by wrangler (dev, deploy) and by the test setup alike.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema",
  out: "./migrations",
});

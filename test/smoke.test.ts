import { describe, expect, it } from "vitest";
import { call, setup } from "./helpers";

describe("smoke", () => {
  it("health and /me", async () => {
    const h = await call("/health");
    expect(h.status).toBe(200);
    const { api } = await setup();
    const me = await api("/me");
    expect(me.status).toBe(200);
    console.log(await me.json());
  });
});

/** The generic workspace settings document at {api}/settings. */
import { describe, expect, it } from "vitest";
import { call, setup } from "./helpers";

type Settings = { success: boolean; message: string; settings: Record<string, unknown>; updated_at: string | null };

describe("workspace settings", () => {
  it("lists every key at its default (null), sets, resets, and keeps workspaces apart", async () => {
    const { api } = await setup();
    const initial = (await (await api("/settings")).json()) as Settings;
    expect(initial).toEqual({
      success: true,
      message: "",
      settings: {
        "restrict.enabled_destinations": null,
        "consignments.delete_guards": null,
        "screening.alert_threshold": null,
        "screening.hold_on": null,
        "compliance.holds": null,
        "compliance.screening_hold_score": null,
      },
      updated_at: null,
    });

    const res = await api("/settings", {
      method: "PATCH",
      json: { "restrict.enabled_destinations": ["us", "DE", "US"] },
    });
    expect(res.status).toBe(200);
    const patched = (await res.json()) as Settings;
    expect(patched.settings["restrict.enabled_destinations"]).toEqual(["DE", "US"]);
    expect(patched.updated_at).not.toBeNull();
    expect(((await (await api("/settings")).json()) as Settings).settings["restrict.enabled_destinations"]).toEqual([
      "DE",
      "US",
    ]);

    // An empty patch changes nothing; an empty list disables every destination.
    expect(
      ((await (await api("/settings", { method: "PATCH", json: {} })).json()) as Settings).settings[
        "restrict.enabled_destinations"
      ],
    ).toEqual(["DE", "US"]);
    expect(
      (
        (await (
          await api("/settings", { method: "PATCH", json: { "restrict.enabled_destinations": [] } })
        ).json()) as Settings
      ).settings["restrict.enabled_destinations"],
    ).toEqual([]);

    const other = await setup();
    expect(
      ((await (await other.api("/settings")).json()) as Settings).settings["restrict.enabled_destinations"],
    ).toBeNull();

    const reset = (await (
      await api("/settings", { method: "PATCH", json: { "restrict.enabled_destinations": null } })
    ).json()) as Settings;
    expect(reset.settings["restrict.enabled_destinations"]).toBeNull();
  });

  it.each([
    ["unknown key", { "restrict.enabled": ["US"] }],
    ["bad country", { "restrict.enabled_destinations": ["XX"] }],
    ["not a list", { "restrict.enabled_destinations": "US" }],
    ["not an object", ["US"]],
  ])("400 for %s", async (_n, payload) => {
    const { api } = await setup();
    const res = await api("/settings", { method: "PATCH", json: payload });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("validation_failed");
  });

  it("needs settings:read to read and settings:write to change; 401 without a token", async () => {
    const reader = await setup(["settings:read"]);
    expect((await reader.api("/settings")).status).toBe(200);
    const denied = await reader.api("/settings", { method: "PATCH", json: {} });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { message: string }).message).toBe("Missing scope: settings:write");
    const none = await setup(["restrict:read"]);
    expect((await none.api("/settings")).status).toBe(403);
    expect((await call("/admin/api/v1/settings", { host: reader.ws.host })).status).toBe(401);
  });
});

import { describe, expect, it } from "vitest";
import { timelineEntry } from "./timeline";

const at = "2026-11-22T10:00:00.000Z";

describe("timeline wording", () => {
  it("says who did what", () => {
    expect(
      timelineEntry({
        id: "cev_1",
        type: "hold.placed",
        data: {
          hold_id: "hld_1",
          code: "DG",
          reason: "Lithium batteries",
          flow_id: 3,
          flow_name: "DG check",
          inline: true,
        },
        createdAt: at,
      }),
    ).toEqual({
      at,
      event_id: "cev_1",
      type: "hold.placed",
      title: "Hold placed",
      detail: "[DG] Lithium batteries",
      actor: "flow 'DG check' (3), inline",
    });
    expect(
      timelineEntry({
        id: "cev_2",
        type: "assessment.created",
        data: {
          destination_country: "US",
          total_duty: "4.10",
          total_tax: "33.58",
          currency: "USD",
          assessment_id: "asm_1",
        },
        createdAt: at,
      }).detail,
    ).toBe("US: duty 4.10 USD, tax 33.58 USD (assessment asm_1)");
    expect(
      timelineEntry({ id: "cev_3", type: "deletion.refused", data: { reasons: ["a", "b"] }, createdAt: at }),
    ).toMatchObject({ title: "Deletion refused", detail: "a, b", actor: "api" });
    expect(
      timelineEntry({
        id: "cev_5",
        type: "consignment.updated",
        data: { changed_fields: ["receiver.city", "parcels[1]"], added: ["par_2"], removed: ["itm_1"] },
        createdAt: at,
      }),
    ).toMatchObject({
      title: "Consignment amended",
      detail: "changed receiver.city, parcels[1]; added par_2; removed itm_1",
      actor: "api",
    });
  });

  it("keeps unknown event types visible", () => {
    expect(timelineEntry({ id: "cev_4", type: "label.created", data: {}, createdAt: at })).toMatchObject({
      title: "label.created",
      detail: null,
      actor: "api",
    });
  });
});

/** The rows of one consignment as the create builds them and as flow actions and reads see them. */
import type {
  consignmentDocuments,
  consignmentHolds,
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignmentPreAlerts,
  consignments,
} from "../../db/schema/index";

export type ConsignmentRow = typeof consignments.$inferSelect;
export type ParcelRow = typeof consignmentParcels.$inferSelect;
export type OrderRow = typeof consignmentOrders.$inferSelect;
export type ItemRow = typeof consignmentItems.$inferSelect;
export type HoldRow = typeof consignmentHolds.$inferSelect;
export type DocumentRow = typeof consignmentDocuments.$inferSelect;
export type PreAlertRow = typeof consignmentPreAlerts.$inferSelect;

export interface Tree {
  consignment: ConsignmentRow;
  parcels: ParcelRow[];
  orders: OrderRow[];
  items: ItemRow[];
}

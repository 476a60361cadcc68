/**
 * The carrier adapter interface: what a carrier integration implements to issue labels for a consignment's
 * parcels, cancel them, and recognise its own tracking numbers. A carrier that needs an account (an API
 * behind credentials) implements the same interface with its HTTP calls at the edge of `createLabels` and
 * `cancel`; the built-in `postal` carrier needs none: it numbers parcels with UPU S10 identifiers from the
 * workspace's own serial range and draws its labels itself.
 */
import { type LabelInput, labelPdf } from "./label-pdf";
import { isS10, s10Identifier } from "./s10";

interface CarrierLabelRequest {
  /** Serial numbers allocated to this request, one per parcel (from the workspace's range). */
  serials: number[];
  service: string;
  label: Omit<LabelInput, "parcels" | "carrierName" | "service"> & {
    parcels: Omit<LabelInput["parcels"][number], "trackingNumber">[];
  };
}

interface CarrierLabels {
  trackingNumbers: string[];
  /** The labels of every parcel in one document. */
  document: { bytes: Uint8Array; contentType: string };
}

export interface CarrierAdapter {
  code: string;
  name: string;
  /** Service codes the carrier offers. */
  services: readonly string[];
  /** Whether a string is one of this carrier's tracking numbers. */
  isTrackingNumber(value: string): boolean;
  createLabels(request: CarrierLabelRequest): Promise<CarrierLabels>;
  /** Voids issued tracking numbers; the postal carrier has nothing to call and only records it. */
  cancel(trackingNumbers: string[]): Promise<void>;
}

/**
 * UPU S10 postal items: `RR` registered, `EE` EMS, `CP` parcels, `UA` untracked letters; the issuing
 * country is the origin postal operator's. Service letters follow the S10 standard's ranges.
 */
export function postalCarrier(issuingCountry: string): CarrierAdapter {
  return {
    code: "postal",
    name: "Postal (UPU S10)",
    services: ["CP", "RR", "EE"],
    isTrackingNumber: (value) => isS10(value) && value.endsWith(issuingCountry),
    async createLabels(request) {
      const trackingNumbers = request.serials.map((s) => s10Identifier(request.service, s, issuingCountry));
      const bytes = await labelPdf({
        ...request.label,
        carrierName: "Postal",
        service: request.service,
        parcels: request.label.parcels.map((p, i) => ({ ...p, trackingNumber: trackingNumbers[i] as string })),
      });
      return { trackingNumbers, document: { bytes, contentType: "application/pdf" } };
    },
    async cancel() {},
  };
}

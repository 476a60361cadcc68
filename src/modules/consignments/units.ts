/** Exact unit conversions for weights (to kg) and dimensions (to cm). */
import { dec } from "../../lib/money";

const TO_KG = { kg: "1", g: "0.001", lb: "0.45359237", oz: "0.028349523125" } as const;
const TO_CM = { cm: "1", mm: "0.1", inch: "2.54" } as const;

export type WeightUnit = keyof typeof TO_KG;
export type LengthUnit = keyof typeof TO_CM;

export const toKg = (value: number, unit: WeightUnit) => dec(value).times(TO_KG[unit]).toString();
export const toCm = (value: number, unit: LengthUnit) => dec(value).times(TO_CM[unit]).toString();
export const decText = (value: number) => dec(value).toString();

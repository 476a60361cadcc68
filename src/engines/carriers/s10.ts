/**
 * UPU S10 identifiers for postal items (UPU standard S10, "Identification of postal items"): two service
 * indicator letters, an 8-digit serial number, a check digit, and the ISO 3166-1 alpha-2 code of the issuing
 * country, e.g. RR473124829GB. The check digit weights the serial's digits 8 6 4 2 3 5 9 7; it is 11 minus
 * the sum modulo 11, with 10 written 0 and 11 written 5.
 */
const WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;
const FORMAT = /^([A-Z]{2})(\d{8})(\d)([A-Z]{2})$/;

/** The S10 check digit of an 8-digit serial number. */
export function s10CheckDigit(serial: string): number {
  if (!/^\d{8}$/.test(serial)) throw new RangeError(`an S10 serial number is 8 digits, got ${JSON.stringify(serial)}`);
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(serial[i]) * (WEIGHTS[i] as number);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** A complete identifier from its parts; the serial is a number below 100,000,000. */
export function s10Identifier(service: string, serial: number, country: string): string {
  if (!/^[A-Z]{2}$/.test(service))
    throw new RangeError(`service indicator must be two capital letters, got ${service}`);
  if (!/^[A-Z]{2}$/.test(country)) throw new RangeError(`country must be ISO 3166-1 alpha-2, got ${country}`);
  if (!Number.isInteger(serial) || serial < 0 || serial > 99_999_999)
    throw new RangeError(`serial out of range: ${serial}`);
  const digits = String(serial).padStart(8, "0");
  return `${service}${digits}${s10CheckDigit(digits)}${country}`;
}

/** Whether a string is a well-formed S10 identifier with a right check digit. */
export function isS10(id: string): boolean {
  const m = FORMAT.exec(id);
  return Boolean(m && s10CheckDigit(m[2] as string) === Number(m[3]));
}

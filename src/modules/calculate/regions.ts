/**
 * Subdivision codes accepted as `destination_region` (ISO 3166-2) where the data has no regional tax row for each:
 * Canada's provinces and territories (GST-only ones are valid, and pay 5 % GST at the border) and the US states,
 * district and outlying areas (state sales taxes are not collected at import). Elsewhere the regions of the VAT data.
 */
const ISO_3166_2: Record<string, string[]> = {
  CA: ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"],
  US: [
    ..."AK AL AR AZ CA CO CT DC DE FL GA HI IA ID IL IN KS KY LA MA MD ME MI MN MO MS MT NC ND NE NH NJ NM NV NY OH OK OR PA RI SC SD TN TX UT VA VT WA WI WV WY".split(
      " ",
    ),
    ..."AS GU MP PR UM VI".split(" "),
  ],
};

/**
 * The region in its full form ("CA-ON" from "ON" or "ca-on"), or null when it is not a subdivision of the
 * destination that the data or ISO 3166-2 knows.
 */
export function normalizeRegion(destination: string, region: string, vatRegions: string[]): string | null {
  const r = region.trim().toUpperCase();
  const full = r.includes("-") ? r : `${destination}-${r}`;
  if (!full.startsWith(`${destination}-`)) return null;
  if (vatRegions.some((v) => v.toUpperCase() === full)) return full;
  return ISO_3166_2[destination]?.includes(full.slice(destination.length + 1)) ? full : null;
}

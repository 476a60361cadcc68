/** The `data_source` every engine reports: the dataset version it answered from, where it came from, and when. */
export interface DataSource {
  version: string;
  source: string;
  imported_at: string;
}

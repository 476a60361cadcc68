/** Vite's `?raw` imports: text files the tests read (evaluation set, synonym list). */
declare module "*?raw" {
  const text: string;
  export default text;
}

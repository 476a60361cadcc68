/** Copies the pinned API reference viewer into public/docs/ (see docs-assets.mjs). */
export function docsAssets(): { version: string; path: string };

/** The drizzle schema, one file per area; drizzle-kit reads this folder to generate migrations. */
export * from "./platform";
export * from "./usage";
export * from "./screen";

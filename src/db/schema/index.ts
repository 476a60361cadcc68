/** The drizzle schema, one file per area; drizzle-kit reads this folder to generate migrations. */
export * from "./platform";
export * from "./usage";
export * from "./webhooks";
export * from "./catalogue";
export * from "./consignments";
export * from "./validation-rules";
export * from "./calculate";
export * from "./restrict";
export * from "./classify";
export * from "./screen";
export * from "./assessments";
export * from "./flows";

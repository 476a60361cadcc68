/** The drizzle schema, one file per area; drizzle-kit reads this folder to generate migrations. */

export * from "./assessments";
export * from "./calculate";
export * from "./catalogue";
export * from "./classify";
export * from "./compliance";
export * from "./consignments";
export * from "./flows";
export * from "./labels";
export * from "./manifests";
export * from "./platform";
export * from "./restrict";
export * from "./screen";
export * from "./screening";
export * from "./usage";
export * from "./validation-rules";
export * from "./webhooks";

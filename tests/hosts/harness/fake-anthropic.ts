/** Moved to src/doctor/fake-model/anthropic.ts (devrites doctor owns the fake models); kept for imports not yet moved. */
export * from "../../../src/doctor/fake-model/anthropic.js";

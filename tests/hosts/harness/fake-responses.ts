/** Moved to src/doctor/fake-model/responses.ts (devrites doctor owns the fake models); kept for imports not yet moved. */
export * from "../../../src/doctor/fake-model/responses.js";

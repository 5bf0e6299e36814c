// @ts-check
/**
 * Mutation testing of the security-critical modules, one Stryker run per area of scripts/mutation-areas.mjs:
 * `npm run mutate [area...]` (scripts/mutate.mjs) sets WEFT_MUTATE_AREA for each; docs/testing.md has the scores.
 * Incremental: a re-run tests only the mutants whose code or tests changed since reports/mutation/<area>.incremental.json.
 */
import { areas } from "./scripts/mutation-areas.mjs"

const name = process.env["WEFT_MUTATE_AREA"] ?? ""
const area = areas[name]
if (area === undefined) throw new Error(`WEFT_MUTATE_AREA must name one of: ${Object.keys(areas).join(", ")} (npm run mutate sets it)`)

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts" },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: area.mutate,
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ["clear-text", "progress-append-only", "json"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  thresholds: { high: 90, low: 85, break: null },
  concurrency: 2,
  tempDirName: ".stryker-tmp",
  // Stryker rewrites the paths a tsconfig refers to outside its sandbox, reading the file with TypeScript's JS API,
  // which the native TypeScript 7 has not. The project's tsconfigs refer to nothing outside it: no file to rewrite.
  tsconfigFile: "no-tsconfig-to-rewrite.json",
  cleanTempDir: "always",
  ignoreStatic: area.ignoreStatic === true && process.env["WEFT_MUTATE_STATIC"] !== "1"
}

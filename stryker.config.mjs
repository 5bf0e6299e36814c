// @ts-check
/**
 * Mutation testing of the security-critical modules: `npm run mutate [area...]` (scripts/mutate.mjs) runs Stryker once
 * per area below, each area's modules against its own unit tests; docs/testing.md has the scores. One run per area
 * keeps a mutant of a module-level constant (a protected name, a table entry) from re-running every other area's
 * tests. Incremental: a re-run tests only the mutants whose code or tests changed since reports/mutation/<area>.incremental.json.
 */

/** @type {Record<string, { mutate: Array<string>, tests: Array<string> }>} */
export const areas = {
  permissions: {
    mutate: [
      "src/permissions/Rules.ts",
      "src/permissions/PathGuard.ts",
      "src/permissions/BashCheck.ts",
      "src/permissions/ShellCheck.ts",
      "src/permissions/ShellWrites.ts",
      "src/permissions/ProgramWrites.ts"
    ],
    tests: ["test/permissions/**/*.test.ts"]
  },
  hooks: {
    mutate: ["src/hooks/CommandHooks.ts"],
    tests: ["test/hooks/**/*.test.ts"]
  },
  secrets: {
    mutate: ["src/platform/Credentials.ts", "src/platform/ChildEnvironment.ts"],
    tests: ["test/platform/**/*.test.ts", "test/permissions/GitSafety.test.ts"]
  },
  stream: {
    mutate: ["src/model/Sse.ts", "src/model/Retry.ts"],
    tests: [
      "test/model/Sse.test.ts",
      "test/model/Sse.frames.test.ts",
      "test/model/Retry.test.ts",
      "test/model/Retry.policy.test.ts",
      "test/model/ApiClientRetry.test.ts"
    ]
  }
}

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
  cleanTempDir: "always"
}

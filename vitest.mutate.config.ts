import { defineConfig } from "vitest/config"
// @ts-expect-error: a JavaScript module without declarations
import { areas } from "./scripts/mutation-areas.mjs"
import base from "./vitest.config.js"

// The unit tests of the area `npm run mutate` is mutating (scripts/mutation-areas.mjs): the e2e tests run the built binary,
// which a mutant of the sources does not change.
const area = (areas as Record<string, { tests: Array<string> }>)[process.env["WEFT_MUTATE_AREA"] ?? ""]

export default defineConfig({
  ...base,
  test: { ...base.test, include: area?.tests ?? [] }
})

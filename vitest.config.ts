import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// `weft` and `weft/testing` as a user imports them (the examples do), from the sources.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^weft$/, replacement: source("./src/index.ts") },
      { find: /^weft\/testing$/, replacement: source("./src/testing/index.ts") }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})

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
    // Claude Code's own file is found through CLAUDE_CONFIG_DIR when set (a run inside Claude Code may have it):
    // tests give their own HOME, so it is set empty (unset, to weft) for them and the binaries they start.
    env: { CLAUDE_CONFIG_DIR: "" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})

import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// `weft` and `weft/testing` as a user imports them (the examples do), from the sources.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The tool suites run a second time with their shells in the OS sandbox (test/sandbox/support.ts), to show that
// ordinary work passes with it on. That needs bubblewrap and user namespaces: CI has them (.ci/run installs
// bubblewrap), so there the run never skips; elsewhere, without them, it is left out with a note.
const sandboxWorks =
  spawnSync("bwrap", ["--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"], {
    stdio: "ignore"
  }).status === 0
const sandboxedTools = sandboxWorks || process.env["CI"] === "true"
if (!sandboxedTools) {
  console.warn("weft tests: bubblewrap or user namespaces are unavailable here: the tool suites' sandboxed run is LEFT OUT")
}

export default defineConfig({
  resolve: {
    alias: [
      { find: /^weft$/, replacement: source("./src/index.ts") },
      { find: /^weft\/testing$/, replacement: source("./src/testing/index.ts") }
    ]
  },
  test: {
    // Claude Code's own file is found through CLAUDE_CONFIG_DIR when set (a run inside Claude Code may have it):
    // tests give their own HOME, so it is set empty (unset, to weft) for them and the binaries they start.
    env: { CLAUDE_CONFIG_DIR: "" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "weft", include: ["test/**/*.test.ts"] } },
      ...(sandboxedTools
        ? [
            {
              extends: true,
              test: { name: "tools in the sandbox", include: ["test/tools/**/*.test.ts"], env: { CLAUDE_CONFIG_DIR: "", WEFT_TEST_SANDBOX: "1" } }
            }
          ]
        : [])
    ]
  }
})

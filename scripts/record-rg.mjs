// Re-records ripgrep's answers that the Grep tests hold the built-in engine to (test/tools/builtin/recorded-rg/),
// so the suite checks the built-in engine against ripgrep on a machine without rg. Needs rg on PATH.
// Usage: node scripts/record-rg.mjs
import { spawnSync } from "node:child_process"
import { rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
if (spawnSync("rg", ["--version"]).status !== 0) {
  console.error("rg is not on PATH: install ripgrep (apt-get install -y ripgrep) to record its answers")
  process.exit(1)
}
const files = ["Grep", "GrepRegex", "SearchIgnores"].map((name) => `test/tools/builtin/${name}.test.ts`)
rmSync(join(root, "test/tools/builtin/recorded-rg"), { recursive: true, force: true })
const run = spawnSync("npx", ["vitest", "run", ...files], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, WEFT_RECORD_RG: "1" }
})
process.exit(run.status ?? 1)

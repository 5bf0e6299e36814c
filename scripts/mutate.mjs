// Mutation testing of the security-critical modules: runs Stryker once per area of mutation-areas.mjs (all of them,
// or those named), then prints each module's mutation score and fails if one is below 85%.
// Usage: npm run mutate [-- paths writes syntax bash wrappers hooks secrets stream]
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const minimum = 85

const run = (command, args, env = {}) => {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } })
  if (result.error !== undefined) throw result.error
  return result.status ?? 1
}

const { areas } = await import("./mutation-areas.mjs")
const named = process.argv.slice(2)
for (const name of named) if (!(name in areas)) throw new Error(`No area ${name}: the areas are ${Object.keys(areas).join(", ")}`)
const chosen = named.length > 0 ? named : Object.keys(areas)

const stryker = join(root, "node_modules/@stryker-mutator/core/bin/stryker.js")
let failed = false
for (const name of chosen) {
  console.error(`\n== ${name}: ${areas[name].mutate.join(", ")}`)
  // A run that fails leaves no report behind: the table shows only what this run measured.
  rmSync(join(root, "reports/mutation", `${name}.json`), { force: true })
  if (run(process.execPath, [stryker, "run"], { WEFT_MUTATE_AREA: name }) !== 0) failed = true
}

// The score as Stryker counts it: killed and timed-out mutants over all but the ignored and the ones that do not compile.
const detected = new Set(["Killed", "Timeout"])
const uncounted = new Set(["Ignored", "CompileError", "RuntimeError"])
const rows = []
for (const name of chosen) {
  const report = join(root, "reports/mutation", `${name}.json`)
  if (!existsSync(report)) continue
  const { files } = JSON.parse(readFileSync(report, "utf8"))
  // Only the area's own modules: an incremental report keeps the files an earlier version of the area mutated.
  for (const [file, { mutants }] of Object.entries(files)) {
    if (!areas[name].mutate.includes(file)) continue
    const counted = mutants.filter((mutant) => !uncounted.has(mutant.status))
    const killed = counted.filter((mutant) => detected.has(mutant.status)).length
    const score = counted.length === 0 ? 100 : (100 * killed) / counted.length
    const ignored = mutants.filter((mutant) => mutant.status === "Ignored").length
    rows.push({ file, score, killed, total: counted.length, ignored })
  }
}
console.log("\n| module | score | detected / counted | ignored (disable comments) |\n|---|---:|---:|---:|")
for (const row of rows) console.log(`| ${row.file} | ${row.score.toFixed(1)}% | ${row.killed} / ${row.total} | ${row.ignored} |`)
const low = rows.filter((row) => row.score < minimum)
if (low.length > 0) {
  console.error(`\nBelow ${minimum}%: ${low.map((row) => row.file).join(", ")}`)
  failed = true
}
process.exit(failed ? 1 : 0)

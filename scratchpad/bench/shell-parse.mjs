// The Bash parser's cost: loading it (web-tree-sitter and the tree-sitter-bash grammar, in a fresh process, as the
// first Bash call checked pays it) and analysing one command (parse + analysis + the read-only check), medians.
// The entry is bundled as the weft binary is (CommonJS, .wasm files beside it), so this also proves that layout.
//   node scratchpad/bench/shell-parse.mjs [processes=9] [rounds=200]
import { spawnSync } from "node:child_process"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { copyShellParser, shellParserDefine, shellParserPlugins } from "../../scripts/shell-parser-build.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const out = join(root, "scratchpad/bench/out/shell-parse")
const processes = Number(process.argv[2] ?? 9)
const rounds = Number(process.argv[3] ?? 200)

await build({
  entryPoints: [join(root, "scratchpad/bench/shell-parse-entry.ts")],
  outfile: join(out, "shell-parse.cjs"),
  bundle: true,
  minify: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  plugins: shellParserPlugins,
  define: shellParserDefine
})
copyShellParser(out)

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
const runs = []
for (let index = 0; index < processes; index++) {
  const run = spawnSync(process.execPath, [join(out, "shell-parse.cjs"), String(index === 0 ? rounds : 20)], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`bench run failed: ${run.stderr}`)
  runs.push(JSON.parse(run.stdout))
}
console.log(`parser load (first analyze, fresh process): median ${median(runs.map((run) => run.loadMs)).toFixed(1)} ms over ${processes} processes`)
console.log(`analysis per command (median of ${rounds} rounds):`)
for (const entry of runs[0].perCommand) {
  console.log(`  ${entry.medianMs.toFixed(3).padStart(7)} ms  ${entry.analysed ? "analysed    " : "unanalysable"} ${entry.readOnly ? "read-only " : "          "} ${JSON.stringify(entry.command).slice(0, 90)}`)
}

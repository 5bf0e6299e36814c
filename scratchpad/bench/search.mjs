#!/usr/bin/env node
// Glob and Grep on a 50k-file tree: weft's built-in engine, weft via rg, and plain rg.
//
//   node scratchpad/bench/search.mjs [--runs 5] [--keep]
//
// Bundles the tool modules with esbuild into scratchpad/bench/out/ (gitignored), generates the tree under the
// OS temp dir (40k project files in nested dirs + a gitignored 10k-file node_modules), then times each case as
// the median of N interleaved runs. weft cases run in-process (the tools' own functions); rg cases spawn `rg`
// (process start included, a few ms). The tree is removed at the end unless --keep.
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const runs = Number(args[args.indexOf("--runs") + 1]) || 5
const keep = args.includes("--keep")

// --- bundle the modules under test -------------------------------------------------------------------------
const esbuild = await import("esbuild")
const outfile = path.join(here, "out", "search.mjs")
await esbuild.build({
  stdin: {
    contents: `
      export { glob } from "../../src/tools/builtin/Glob.ts"
      export { grep } from "../../src/tools/builtin/Grep.ts"
      export { findRipgrep } from "../../src/tools/search/Ripgrep.ts"
      export { SearchFiles } from "../../src/tools/search/SearchFiles.ts"
      export * as Effect from "effect/Effect"
    `,
    resolveDir: here,
    loader: "ts"
  },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile,
  logLevel: "warning"
})
const { glob, grep, findRipgrep, SearchFiles, Effect: EffectModule } = await import(outfile)
// The search functions read the disk through SearchFiles: the bench provides its Node layer.
const Effect = { runPromise: (effect) => EffectModule.runPromise(EffectModule.provide(effect, SearchFiles.layer)) }
const rg = findRipgrep(process.env.PATH)
if (rg === undefined) {
  console.error("rg is not on PATH (apt-get install -y ripgrep)")
  process.exit(1)
}

// --- the tree ------------------------------------------------------------------------------------------------
const root = fs.mkdtempSync(path.join(os.tmpdir(), "weft-bench-search-"))
const extensions = ["ts", "ts", "js", "md", "json", "py", "txt", "tsx"]
let seed = 42
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
const words = ["alpha", "beta", "gamma", "delta", "const", "function", "return", "import", "export", "value"]
const body = (index) => {
  const lines = []
  const count = 5 + Math.floor(random() * 40)
  for (let i = 0; i < count; i++) {
    let line = ""
    for (let w = 0; w < 6; w++) line += words[Math.floor(random() * words.length)] + " "
    lines.push(line)
  }
  if (index % 97 === 0) lines.splice(Math.floor(lines.length / 2), 0, "// needle_literal found here")
  if (index % 211 === 0) lines.push(`function handle${index}Error(code) { return code }`)
  return lines.join("\n") + "\n"
}
const started = performance.now()
let files = 0
fs.writeFileSync(path.join(root, ".gitignore"), "node_modules/\n*.log\n")
for (let pkg = 0; pkg < 40; pkg++) {
  for (let mod = 0; mod < 25; mod++) {
    const dir = path.join(root, "src", `pkg${pkg}`, `mod${mod}`)
    fs.mkdirSync(dir, { recursive: true })
    for (let f = 0; f < 40; f++) {
      const ext = extensions[(pkg + mod + f) % extensions.length]
      fs.writeFileSync(path.join(dir, `file${f}.${ext}`), body(files++))
    }
  }
}
for (let pkg = 0; pkg < 100; pkg++) {
  for (let sub = 0; sub < 10; sub++) {
    const dir = path.join(root, "node_modules", `dep${pkg}`, `lib${sub}`)
    fs.mkdirSync(dir, { recursive: true })
    for (let f = 0; f < 10; f++) fs.writeFileSync(path.join(dir, `index${f}.ts`), body(files++))
  }
}
console.log(`tree: ${files} files (10000 in a gitignored node_modules) at ${root}, made in ${Math.round(performance.now() - started)} ms`)

// --- the cases ------------------------------------------------------------------------------------------------
const query = (pattern) => ({
  pattern,
  root,
  rootIsFile: false,
  globs: [],
  type: undefined,
  mode: "files_with_matches",
  ignoreCase: false,
  lineNumbers: true,
  before: 0,
  after: 0,
  multiline: false,
  headLimit: undefined
})
const builtin = { _tag: "Builtin" }
const viaRg = { _tag: "Ripgrep", executable: rg }
const spawnRg = (argv) => () => {
  const result = spawnSync(rg, argv, { cwd: root, maxBuffer: 256 * 1024 * 1024 })
  if (result.status !== 0 && result.status !== 1) throw new Error(`rg failed: ${result.stderr}`)
  return result.stdout.toString().split("\n").filter(Boolean).length
}
const LITERAL = "needle_literal"
const REGEX = "handle\\d+Error\\(\\w+\\)"
const cases = [
  ["Glob **/*.ts", "weft builtin", async () => (await Effect.runPromise(glob("**/*.ts", root, 1e9))).files.length],
  ["Glob **/*.ts", "rg --files -g '*.ts'", spawnRg(["--files", "-g", "*.ts", "--no-require-git", "."])],
  ["Grep -l literal", "weft builtin", async () => count(await Effect.runPromise(grep(query(LITERAL), builtin)))],
  ["Grep -l literal", "weft via rg", async () => count(await Effect.runPromise(grep(query(LITERAL), viaRg)))],
  ["Grep -l literal", "rg -l", spawnRg(["-l", "--no-require-git", LITERAL, "."])],
  ["Grep -l regex", "weft builtin", async () => count(await Effect.runPromise(grep(query(REGEX), builtin)))],
  ["Grep -l regex", "weft via rg", async () => count(await Effect.runPromise(grep(query(REGEX), viaRg)))],
  ["Grep -l regex", "rg -l", spawnRg(["-l", "--no-require-git", REGEX, "."])]
]
const count = (text) => Number(/^Found (\d+) file/.exec(text)?.[1] ?? 0)

const times = cases.map(() => [])
const results = cases.map(() => undefined)
for (let run = 0; run < runs; run++) {
  for (const [index, [, , fn]] of cases.entries()) {
    const t = performance.now()
    const n = await fn()
    times[index].push(performance.now() - t)
    if (results[index] !== undefined && results[index] !== n) throw new Error(`case ${index} found ${n}, before ${results[index]}`)
    results[index] = n
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

// --- report ---------------------------------------------------------------------------------------------------
const rgBaseline = new Map()
cases.forEach(([name, engine], index) => {
  if (engine.startsWith("rg")) rgBaseline.set(name, median(times[index]))
})
console.log(`\nmedian of ${runs} interleaved runs; node ${process.version}, ${os.cpus().length} cpus, ${execFileSync(rg, ["--version"]).toString().split("\n")[0]}`)
console.log("| case | engine | median ms | found | vs rg |")
console.log("|---|---|---:|---:|---:|")
cases.forEach(([name, engine], index) => {
  const ms = median(times[index])
  const base = rgBaseline.get(name)
  console.log(`| ${name} | ${engine} | ${ms.toFixed(1)} | ${results[index]} | ${base ? (ms / base).toFixed(2) + "×" : ""} |`)
})

if (!keep) fs.rmSync(root, { recursive: true, force: true })

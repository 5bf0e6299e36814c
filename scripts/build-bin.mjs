// Builds the `weft` binary into dist/bin:
//   weft.cjs                       the launcher (src/cli/bin.ts): `--version`, else runs the bundle below
//   weft-app.cjs                   the application (src/cli/main.ts), one minified CommonJS bundle
//   weft-app.<hash>.<node>-<arch>.codecache   V8's code cache of a trained run, for the Node.js running this build
// The cache is trained by running `weft demo` (a scripted print session: Read, Edit, Bash, answer, against the
// built-in mock server): its print run writes the cache at exit. `--no-train` skips that step; `--no-minify` keeps
// names readable (for profiling: node --cpu-prof dist/bin/weft.cjs ...).
// Usage: node scripts/build-bin.mjs [--no-train] [--no-minify]
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, existsSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const out = join(root, "dist/bin")
const minify = !process.argv.includes("--no-minify")
const common = { bundle: true, minify, platform: "node", format: "cjs", target: "node20", legalComments: "none", logLevel: "warning" }

rmSync(out, { recursive: true, force: true })
const app = join(out, "weft-app.cjs")
await build({ ...common, entryPoints: [join(root, "src/cli/main.ts")], outfile: app })
const hash = createHash("sha256").update(readFileSync(app)).digest("hex").slice(0, 16)

const launcher = join(out, "weft.cjs")
await build({
  ...common,
  entryPoints: [join(root, "src/cli/bin.ts")],
  outfile: launcher,
  banner: { js: "#!/usr/bin/env node" },
  define: { WEFT_APP_HASH: JSON.stringify(hash) }
})
chmodSync(launcher, 0o755)

if (!process.argv.includes("--no-train")) {
  const cache = join(out, `weft-app.${hash}.${process.version}-${process.arch}.codecache`) // as src/cli/CodeCache.ts names it
  const demo = spawnSync(process.execPath, [launcher, "demo"], {
    env: { ...process.env, WEFT_CODE_CACHE_TRAIN: cache },
    encoding: "utf8"
  })
  if (demo.status !== 0 || !existsSync(cache)) {
    process.stderr.write(`${demo.stdout ?? ""}${demo.stderr ?? ""}\n`)
    throw new Error(`training the code cache failed (weft demo exited with ${demo.status ?? demo.signal})`)
  }
}

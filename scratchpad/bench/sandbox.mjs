// What the command sandbox costs, beside the same without it, in one run: weft -p sessions through the built binary
// whose model runs N Bash commands (`true` x50, `ls` x50, a mixed 200-command session), with and without --sandbox
// (bypassPermissions, so no question is asked in either), `true` x50 also with an allowed host (the network proxy
// and its bridge start for every command: perl, else socat, else node), and the bare spawn of `bash -c true`
// beside the same under bwrap with weft's options. Run after `npm run build`:
//   node scratchpad/bench/sandbox.mjs [runs=3]
import { spawnSync } from "node:child_process"
import { binary, makeProject, median, sessionEnv, timed, withoutExtraCerts } from "./session-common.mjs"
import { join, resolve, dirname } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { ScriptTurn, textTurn, toolUse } = await import(join(root, "dist/lib/testing/Script.js"))
const runs = Number(process.argv[2] ?? 3)

const project = await makeProject("weft-bench-sandbox-")
spawnSync("git", ["init", "-q"], { cwd: project.dir })
const mixed = ["true", "ls", "cat notes.txt | wc -l", "git status --short", "echo x > scratch.txt", "mktemp", "node -e 0", "grep -c line notes.txt"]
const sessions = {
  "true x50": Array.from({ length: 50 }, () => "true"),
  "ls x50": Array.from({ length: 50 }, () => "ls"),
  "mixed x200": Array.from({ length: 200 }, (_, i) => mixed[i % mixed.length] === "node -e 0" ? "true" : mixed[i % mixed.length])
}
const servers = {}
for (const [name, commands] of Object.entries(sessions)) {
  servers[name] = await startMockAnthropicServer({
    script: [...commands.map((command, i) => ScriptTurn.blocks([toolUse("Bash", { command }, `t${i}`)])), textTurn("Done.")]
  })
}
const modes = {
  plain: [],
  sandbox: ["--sandbox"],
  proxy: ["--sandbox", "--settings", JSON.stringify({ sandbox: { network: { allowedDomains: ["localhost"] } } })]
}
const run = (name, mode) =>
  timed(["node", binary, "-p", "go", "--permission-mode", "bypassPermissions", ...modes[mode]], {
    cwd: project.dir,
    env: withoutExtraCerts(sessionEnv(servers[name], project.dir))
  })
// Warm the disk cache, and check the sandbox is really on.
const check = await timed(["node", binary, "-p", "go", "--sandbox", "--permission-mode", "bypassPermissions", "--output-format", "json"], {
  cwd: project.dir,
  env: withoutExtraCerts(sessionEnv(servers["true x50"], project.dir))
})
if (!check.stdout.includes("Done.")) throw new Error(`the sandboxed session did not finish: ${check.stdout}`)

// The bridge NetworkBridge.detect picks: perl, else socat, else node.
const has = (tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0
const bridgeKind = has("perl") ? "perl" : has("socat") ? "socat" : "node"
const walls = {}
for (let i = 0; i < runs; i++) {
  for (const name of Object.keys(sessions)) {
    for (const mode of name === "true x50" ? ["plain", "sandbox", "proxy"] : ["plain", "sandbox"]) {
      ;(walls[`${name} ${mode}`] ??= []).push((await run(name, mode)).wall)
    }
  }
}
for (const server of Object.values(servers)) await server.close()

// The bare spawn: bash -c true, and the same under bwrap (the options weft passes, without its mounts of the home).
const bareRuns = 200
const spawnMs = (argv) => {
  const started = process.hrtime.bigint()
  for (let i = 0; i < bareRuns; i++) {
    const result = spawnSync(argv[0], argv.slice(1), { cwd: project.dir, stdio: "ignore" })
    if (result.status !== 0) throw new Error(`${argv.join(" ")} failed`)
  }
  return Number(process.hrtime.bigint() - started) / 1e6 / bareRuns
}
const bwrap = ["bwrap", "--new-session", "--die-with-parent", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--unshare-user", "--disable-userns", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", project.dir, project.dir, "--"]
const bare = { plain: spawnMs(["bash", "-c", "true"]), bwrap: spawnMs([...bwrap, "bash", "-c", "true"]) }
const perl = spawnMs(["perl", "-e", "exec { $ARGV[0] } @ARGV", "bash", "-c", "true"])
await project.remove()

console.log(`weft -p sessions through the built binary, medians of ${runs} interleaved runs (wall), bypassPermissions`)
for (const [name, commands] of Object.entries(sessions)) {
  const plain = median(walls[`${name} plain`])
  const sandboxed = median(walls[`${name} sandbox`])
  console.log(
    `${name.padEnd(11)} plain ${plain.toFixed(0).padStart(6)} ms  sandbox ${sandboxed.toFixed(0).padStart(6)} ms  ratio ${(sandboxed / plain).toFixed(2)}  ` +
      `+${((sandboxed - plain) / commands.length).toFixed(1)} ms a command`
  )
  const proxied = walls[`${name} proxy`]
  if (proxied !== undefined) {
    const withProxy = median(proxied)
    console.log(
      `${"".padEnd(11)} with an allowed host (proxy + bridge, ${bridgeKind}) ${withProxy.toFixed(0)} ms  ratio ${(withProxy / plain).toFixed(2)}  ` +
        `+${((withProxy - plain) / commands.length).toFixed(1)} ms a command`
    )
  }
}
console.log(`bare spawn, mean of ${bareRuns}: bash -c true ${bare.plain.toFixed(2)} ms; under bwrap ${bare.bwrap.toFixed(2)} ms (ratio ${(bare.bwrap / bare.plain).toFixed(2)}, +${(bare.bwrap - bare.plain).toFixed(2)} ms); perl exec in front ${perl.toFixed(2)} ms (+${(perl - bare.plain).toFixed(2)} ms, the seccomp step when the proxy bridge runs)`)

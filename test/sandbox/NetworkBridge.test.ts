/**
 * The bridge into a sandbox's network namespace, with real bwrap: inside `bwrap --unshare-net` a command reaches an
 * allowed loopback origin on the host by name and by IP only through weft's proxy (plain HTTP, CONNECT, and with
 * ordinary clients that read the proxy variables), an unlisted one is refused with 403 and a violation on its
 * listener, nothing on the host is reachable directly, and DNS fails. Run with the Node.js bridge always and the
 * socat one where socat is installed.
 *
 * bwrap: CI installs it, so under CI=true these tests never skip; elsewhere they skip with a note when bwrap or user
 * namespaces are missing.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import { type Bridge, DEFAULT_PORT, detect, environment, node, perl, socat } from "../../src/sandbox/NetworkBridge.js"
import type { Policy } from "../../src/sandbox/NetworkPolicy.js"
import { lookupStatic, make } from "../../src/sandbox/NetworkProxy.js"
import { sleepLive } from "../../src/tools/shell/ProcessGroup.js"
import { tempDir } from "../support/TempFiles.js"

const which = (name: string): string | undefined => {
  const found = spawnSync("bash", ["-c", `command -v ${name}`], { encoding: "utf8" })
  return found.status === 0 && found.stdout.trim() !== "" ? found.stdout.trim() : undefined
}

const bwrapWorks =
  which("bwrap") !== undefined &&
  spawnSync("bwrap", ["--unshare-user", "--unshare-net", "--ro-bind", "/", "/", "true"], { stdio: "ignore" }).status === 0
const underCi = process.env["CI"] === "true"
if (!bwrapWorks && !underCi) {
  console.warn("SKIPPED: the sandbox network tests need bwrap and user namespaces (CI installs bwrap and runs them)")
}
const socatPath = which("socat")
const bashPath = which("bash") ?? "/bin/bash"
if (socatPath === undefined) console.warn("SKIPPED: the socat bridge tests (socat is not installed; the node bridge is tested)")
const perlPath = which("perl")
if (perlPath === undefined) console.warn("SKIPPED: the perl bridge tests (perl is not installed; the node bridge is tested)")
const curlPath = which("curl")

const policy = (allowedDomains: ReadonlyArray<string>, deniedDomains: ReadonlyArray<string> = []): Policy => ({
  allowedDomains,
  deniedDomains
})

describe("environment", () => {
  it("points HTTP(S) and SOCKS clients at the bridge, and tells Node's fetch to read them", () => {
    const env = environment(policy(["example.com"]), 3128)
    expect(env).toMatchObject({
      HTTP_PROXY: "http://127.0.0.1:3128",
      HTTPS_PROXY: "http://127.0.0.1:3128",
      http_proxy: "http://127.0.0.1:3128",
      https_proxy: "http://127.0.0.1:3128",
      ALL_PROXY: "socks5h://127.0.0.1:3128",
      all_proxy: "socks5h://127.0.0.1:3128",
      NODE_USE_ENV_PROXY: "1"
    })
  })

  it("leaves unlisted loopback to the sandbox's own loopback, and sends listed loopback through the proxy", () => {
    expect(environment(policy(["example.com"]), 1).NO_PROXY).toBe("localhost,127.0.0.1,::1")
    expect(environment(policy(["localhost"]), 1).no_proxy).toBe("127.0.0.1,::1")
    expect(environment(policy(["localhost", "127.0.0.1", "[::1]:8080"]), 1).NO_PROXY).toBe("")
  })
})

describe("detect", () => {
  it.effect("prefers perl, then socat with bash, then the Node.js running weft", () =>
    Effect.gen(function* () {
      const bridge = yield* detect
      expect(bridge.kind).toBe(perlPath !== undefined ? "perl" : socatPath !== undefined ? "socat" : "node")
    })
  )

  it("prefixes: socat through bash, node with its script given inline", () => {
    expect(socat({ socat: "/usr/bin/socat", bash: "/bin/bash" }).prefix({ port: 3128, socketPath: "/s.sock" }).slice(3)).toEqual([
      "weft-bridge",
      "/usr/bin/socat",
      "3128",
      "/s.sock"
    ])
    const prefix = node("/usr/bin/node").prefix({ port: 3128, socketPath: "/s.sock" })
    expect([prefix[0], prefix[1], prefix[3], prefix[4]]).toEqual(["/usr/bin/node", "-e", "3128", "/s.sock"])
  })
})

/** An HTTP server on 127.0.0.1 answering `origin <path>`, closed with the scope. */
const origin = Effect.acquireRelease(
  Effect.callback<{ readonly server: http.Server; readonly port: number; readonly paths: Array<string> }>((resume) => {
    const paths: Array<string> = []
    const server = http.createServer((request, response) => {
      paths.push(request.url ?? "")
      response.end(`origin ${request.url}`)
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resume(Effect.succeed({ server, paths, port: typeof address === "object" && address !== null ? address.port : 0 }))
    })
  }),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

/**
 * What runs inside: a Node.js client printing one JSON object. Explicit proxy requests (so the bridge and proxy are
 * tested whatever the client), a direct connection (must fail), DNS (must fail), and fetch with the variables alone.
 */
const client = `"use strict";
const http = require("node:http"), net = require("node:net"), dns = require("node:dns");
const [allowed, unlisted] = process.argv.slice(1).map(Number);
const proxy = new URL(process.env.HTTP_PROXY);
// A fresh agent: explicit proxy requests, not Node's own reading of the variables (NODE_USE_ENV_PROXY).
const agent = new http.Agent();
const get = (url) => new Promise((resolve) => {
  const request = http.request({ agent, host: proxy.hostname, port: proxy.port, path: url, headers: { host: new URL(url).host } }, (response) => {
    let body = ""; response.on("data", (c) => body += c); response.on("end", () => resolve(response.statusCode + " " + body.trim()));
  });
  request.on("error", (e) => resolve("error " + e.code)); request.end();
});
const tunnel = (authority) => new Promise((resolve) => {
  const request = http.request({ agent, host: proxy.hostname, port: proxy.port, method: "CONNECT", path: authority });
  request.on("connect", (response, socket) => {
    if (response.statusCode !== 200) { resolve("status " + response.statusCode); socket.destroy(); return; }
    let body = ""; socket.on("data", (c) => body += c); socket.on("end", () => resolve(body.split("\\r\\n\\r\\n")[1]));
    socket.write("GET /connect HTTP/1.1\\r\\nHost: " + authority + "\\r\\nConnection: close\\r\\n\\r\\n");
  });
  request.on("error", (e) => resolve("error " + e.code)); request.end();
});
const direct = () => new Promise((resolve) => {
  const socket = net.connect(allowed, "127.0.0.1");
  socket.on("connect", () => { socket.destroy(); resolve("connected"); }); socket.on("error", (e) => resolve(e.code));
});
const lookup = (name) => new Promise((resolve) => dns.lookup(name, (e, address) => resolve(e ? "error " + e.code : address)));
const resolver = new dns.Resolver({ timeout: 500, tries: 1 });
const query = (name) => new Promise((resolve) => resolver.resolve4(name, (e, a) => resolve(e ? "error " + e.code : a.join(","))));
const fetched = (url) => fetch(url).then((r) => r.text()).catch((e) => "error " + (e.cause?.code ?? e.message));
const plainGet = (url) => new Promise((resolve) => http.get(url, (response) => {
  let body = ""; response.on("data", (c) => body += c); response.on("end", () => resolve(body));
}).on("error", (e) => resolve("error " + e.code)));
(async () => {
  const result = {
    byName: await get("http://localhost:" + allowed + "/name"),
    byIp: await get("http://127.0.0.1:" + allowed + "/ip"),
    connectByName: await tunnel("localhost:" + allowed),
    connectByIp: await tunnel("127.0.0.1:" + allowed),
    unlisted: await get("http://127.0.0.1:" + unlisted + "/unlisted"),
    unlistedConnect: await tunnel("localhost:" + unlisted),
    direct: await direct(),
    lookup: await lookup("example.com"),
    query: await query("example.com"),
    fetch: await fetched("http://localhost:" + allowed + "/fetch"),
    httpGet: await plainGet("http://localhost:" + allowed + "/get"),
  };
  console.log(JSON.stringify(result));
})();
`

/**
 * The sandbox's shape as far as the network goes: its own user, network and pid namespaces (the pid namespace is
 * what ends a socat bridge when the command returns). Resolvers reachable over unix sockets (nscd,
 * systemd-resolved) are the sandbox's to hide (its seccomp filter refuses AF_UNIX): here a tmpfs over /run.
 */
const sandboxArgs = [
  "--unshare-user",
  "--unshare-net",
  "--unshare-pid",
  "--die-with-parent",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/run",
  "--"
]

/** Processes running that name the listener's socket in their command line (a bridge). */
const running = (socketPath: string): Array<string> =>
  fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return []
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8")
      return cmdline.includes(socketPath) ? [cmdline.replace(/\0/g, " ")] : []
    } catch {
      return []
    }
  })

/**
 * A bridge left behind once the sandbox is gone. bwrap returns as soon as the command has exited, and the kernel
 * ends the rest of the pid namespace right after: allow that a moment (polling, bounded), then report what remains.
 */
const leftRunning = (socketPath: string): Effect.Effect<Array<string>> =>
  Effect.suspend(function poll(remainingMs: number = 2_000): Effect.Effect<Array<string>> {
    const left = running(socketPath)
    if (left.length === 0 || remainingMs <= 0) return Effect.succeed(left)
    return Effect.andThen(sleepLive(20), Effect.suspend(() => poll(remainingMs - 20)))
  })

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const runIn = (argv: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.callback<Run>((resume) => {
    const child = spawn(argv[0] ?? "false", argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const bridges: ReadonlyArray<readonly [string, Bridge | undefined]> = [
  ["node", node(process.execPath)],
  ["perl", perlPath === undefined ? undefined : perl(perlPath)],
  ["socat", socatPath === undefined ? undefined : socat({ socat: socatPath, bash: bashPath })]
]

describe.skipIf(!bwrapWorks && !underCi)("inside bwrap --unshare-net, through the bridge", () => {
  for (const [kind, bridge] of bridges) {
    it.live.skipIf(bridge === undefined)(`${kind}: allowed loopback by name and IP, unlisted refused, no direct route, no DNS`, () =>
      Effect.gen(function* () {
        if (bridge === undefined) return
        const allowed = yield* origin
        const unlisted = yield* origin
        const rules = policy([`localhost:${allowed.port}`, `127.0.0.1:${allowed.port}`])
        const proxy = yield* make({ policy: rules, lookup: lookupStatic({}) })
        const listener = yield* proxy.listen(tempDir("weft-net-"))
        const env = {
          PATH: process.env["PATH"] ?? "/usr/bin:/bin",
          HOME: "/nonexistent",
          ...environment(rules, DEFAULT_PORT)
        }
        const run = yield* runIn(
          [
            "bwrap",
            ...sandboxArgs,
            ...bridge.prefix({ port: DEFAULT_PORT, socketPath: listener.socketPath }),
            process.execPath,
            "-e",
            client,
            String(allowed.port),
            String(unlisted.port)
          ],
          env
        )
        expect(run.code, run.stderr).toBe(0)
        const result: unknown = JSON.parse(run.stdout)
        expect(result).toMatchObject({
          byName: "200 origin /name",
          byIp: "200 origin /ip",
          connectByName: "origin /connect",
          connectByIp: "origin /connect",
          unlisted: `403 weft sandbox: port ${unlisted.port} of 127.0.0.1 is not in sandbox.network.allowedDomains (other ports of it are)`,
          unlistedConnect: "status 403",
          direct: "ECONNREFUSED",
          lookup: expect.stringMatching(/^error (ENOTFOUND|EAI_AGAIN)$/),
          query: expect.stringMatching(/^error /)
        })
        // Node.js 24 reads the proxy variables itself (fetch and http) with NODE_USE_ENV_PROXY.
        if (Number(process.versions.node.split(".")[0]) >= 24) {
          expect(result).toMatchObject({ fetch: "origin /fetch", httpGet: "origin /get" })
        }
        expect(unlisted.paths).toEqual([])
        expect(allowed.paths).toEqual(expect.arrayContaining(["/name", "/ip", "/connect"]))
        expect(yield* leftRunning(listener.socketPath)).toEqual([])
        expect(yield* listener.violations).toMatchObject([
          { host: "127.0.0.1", port: unlisted.port, reason: "unlisted" },
          { host: "localhost", port: unlisted.port, reason: "unlisted" }
        ])
      })
    )
  }

  for (const [kind, bridge] of bridges) {
    it.live.skipIf(bridge === undefined)(`${kind}: the command gets fd 3 as given and its exit status back`, () =>
      Effect.gen(function* () {
        if (bridge === undefined) return
        const proxy = yield* make({ policy: policy([]) })
        const listener = yield* proxy.listen(tempDir("weft-net-"))
        const run = yield* Effect.callback<Run>((resume) => {
          const child = spawn(
            "bwrap",
            [
              ...sandboxArgs,
              ...bridge.prefix({ port: DEFAULT_PORT, socketPath: listener.socketPath }),
              bashPath,
              "-c",
              "cat <&3; exit 7"
            ],
            { stdio: ["ignore", "pipe", "pipe", "pipe"] }
          )
          let stdout = ""
          child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
          const fd3 = child.stdio[3]
          if (fd3 !== null && fd3 !== undefined && "end" in fd3) fd3.end("filter bytes\n")
          child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr: "" })))
          return Effect.sync(() => child.kill("SIGKILL"))
        })
        expect(run).toMatchObject({ code: 7, stdout: "filter bytes\n" })
        expect(yield* leftRunning(listener.socketPath)).toEqual([])
      })
    )
  }

  it.live.skipIf(curlPath === undefined)("an ordinary client (curl) with only the variables reaches a listed localhost, over HTTP and SOCKS5", () =>
    Effect.gen(function* () {
      const allowed = yield* origin
      const rules = policy(["localhost"])
      const proxy = yield* make({ policy: rules, lookup: lookupStatic({}) })
      const listener = yield* proxy.listen(tempDir("weft-net-"))
      const bridge = node(process.execPath)
      const run = yield* runIn(
        [
          "bwrap",
          ...sandboxArgs,
          ...bridge.prefix({ port: DEFAULT_PORT, socketPath: listener.socketPath }),
          bashPath,
          "-c",
          `curl -sS http://localhost:${allowed.port}/plain; echo; curl -sS -p http://localhost:${allowed.port}/tunnel; echo; ` +
            `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${allowed.port}/ip; echo; getent hosts example.com; echo "getent=$?"; ` +
            `curl -sS --proxy "$ALL_PROXY" http://localhost:${allowed.port}/socks; echo`
        ],
        { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...environment(rules, DEFAULT_PORT) }
      )
      // 127.0.0.1 is not listed, so it is in NO_PROXY: curl goes direct, to the sandbox's own (empty) loopback.
      expect(run.stdout.split("\n")).toEqual(["origin /plain", "origin /tunnel", "000", "getent=2", "origin /socks", ""])
    })
  )
})

/**
 * The sandbox with the real bubblewrap: what a script the repository holds (which the permission layer never sees)
 * can and cannot do from inside, and that ordinary work still succeeds.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as nodePath from "node:path"
import { Settings } from "../../src/context/Settings.js"
import * as Hooks from "../../src/hooks/Hooks.js"
import * as Sandbox from "../../src/sandbox/Sandbox.js"
import * as SandboxConfig from "../../src/sandbox/SandboxConfig.js"
import { ShellSession } from "../../src/tools/ShellSession.js"
import { ChildEnvironment } from "../../src/platform/ChildEnvironment.js"
import { gitEnv, makeWorld, processesWith, run, SECRET, sandboxedShell, sandboxSkip, script, type World } from "./support.js"

const servers: Array<net.Server> = []
/** Files a broken sandbox would leave outside the test's temp dir. */
const strays: Array<string> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
  for (const path of strays.splice(0)) fs.rmSync(path, { force: true })
})

const node = process.execPath

/** Starts `server` on a free port of 127.0.0.1; answers the port. */
const listenOnLoopback = (server: net.Server) =>
  Effect.callback<number>((resume) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

describe.skipIf(sandboxSkip !== undefined)("Sandbox (bubblewrap)", () => {
  describe("writes outside the workspace are refused", () => {
    it.live("home, the parent directory, /tmp, through a symlink and a hard link; the model is told which path", () => {
      const world = makeWorld()
      const tmpTarget = nodePath.join(nodePath.dirname(world.root), `weft-sbx-escape-${nodePath.basename(world.root)}`)
      strays.push(tmpTarget)
      fs.symlinkSync(world.outside, nodePath.join(world.workspace, "link"))
      const command = script(
        world,
        "escape.sh",
        [
          `echo pwned >> "${world.home}/.bashrc"; echo "home=$?"`,
          `echo pwned > ../outside/new.txt; echo "parent=$?"`,
          `echo pwned > "${tmpTarget}"; echo "tmp=$?"`,
          `echo pwned > link/via-link.txt; echo "symlink=$?"`,
          `ln "${world.home}/.bashrc" hard 2>&1; echo "hardlink=$?"`,
          `ln ../outside/notes.txt hard2 2>&1; echo "hardlink2=$?"`
        ].join("\n")
      )
      return Effect.gen(function* () {
        const done = yield* run(command)
        for (const name of ["home", "parent", "tmp", "symlink", "hardlink", "hardlink2"]) {
          expect(done.output).toMatch(new RegExp(`${name}=[1-9]`))
        }
        expect(fs.readFileSync(nodePath.join(world.home, ".bashrc"), "utf8")).toBe("# rc\n")
        expect(fs.existsSync(nodePath.join(world.outside, "new.txt"))).toBe(false)
        expect(fs.existsSync(tmpTarget)).toBe(false)
        expect(fs.existsSync(nodePath.join(world.workspace, "hard"))).toBe(false)
        expect(fs.existsSync(nodePath.join(world.workspace, "hard2"))).toBe(false)
        expect(done.output).toContain("<sandbox_violations>")
        expect(done.output).toContain(`file: refused writing ${world.home}/.bashrc`)
      }).pipe(Effect.provide(sandboxedShell(world)))
    })

    it.live("a process the command leaves behind (&, nohup, setsid) is gone when it returns", () => {
      const world = makeWorld()
      const marker = `weftmarker${process.pid}x${Date.now()}`
      const command = script(
        world,
        "linger.sh",
        [
          `(exec -a ${marker}a sleep 300) &`,
          `nohup bash -c 'exec -a ${marker}b sleep 300' >/dev/null 2>&1 &`,
          `setsid bash -c 'exec -a ${marker}c sleep 300' >/dev/null 2>&1 &`,
          `disown -a; echo started`
        ].join("\n")
      )
      return Effect.gen(function* () {
        const done = yield* run(command)
        expect(done.output).toContain("started")
        expect(processesWith(marker)).toEqual([])
      }).pipe(Effect.provide(sandboxedShell(world)))
    })
  })

  describe("reads", () => {
    it.live("the default credential paths and weft's home are unreadable; denyRead hides a path", () => {
      const world = makeWorld()
      fs.mkdirSync(nodePath.join(world.root, "private"))
      fs.writeFileSync(nodePath.join(world.root, "private", "key"), `${SECRET} private\n`)
      fs.writeFileSync(nodePath.join(world.outside, "token"), `${SECRET} token\n`)
      const command = script(
        world,
        "steal.sh",
        [
          `for f in .ssh/id_ed25519 .aws/credentials .netrc .claude.json .config/gcloud/credentials.db .docker/config.json .kube/config .weft/projects/x.jsonl; do cat "${world.home}/$f" 2>/dev/null; done`,
          `ls -a "${world.home}/.ssh"`,
          `cat "${world.root}/private/key" "${world.outside}/token" 2>&1`,
          `cat "${world.outside}/notes.txt"`
        ].join("\n")
      )
      return Effect.gen(function* () {
        const done = yield* run(command)
        expect(done.output).not.toContain(SECRET)
        // What is not listed stays readable.
        expect(done.output).toContain("outside")
      }).pipe(
        Effect.provide(sandboxedShell(world, { filesystem: { denyRead: [`${world.root}/private`, `${world.outside}/token`] } }))
      )
    })

    it.live("filesystem.allowRead re-opens a default credential path", () => {
      const world = makeWorld()
      return Effect.gen(function* () {
        const done = yield* run(`cat "${world.home}/.aws/credentials"; cat "${world.home}/.ssh/id_ed25519"`)
        expect(done.output).toContain(`${SECRET} .aws/credentials`)
        expect(done.output).not.toContain(`${SECRET} .ssh`)
      }).pipe(Effect.provide(sandboxedShell(world, { filesystem: { allowRead: ["~/.aws"] } })))
    })
  })

  describe("the agent's configuration inside the workspace", () => {
    it.live("stays read-only while git add and git commit work", () => {
      const world = makeWorld()
      const command = script(
        world,
        "plant.sh",
        [
          `echo '{"hooks":{}}' > .claude/settings.json; echo "settings=$?"`,
          `mkdir -p .claude/commands 2>/dev/null; echo "commands=$?"`,
          `printf '#!/bin/sh\\necho hooked\\n' > .git/hooks/pre-commit; echo "hook=$?"`,
          `git config core.hooksPath /tmp/evil 2>/dev/null; echo "config=$?"`,
          `echo '{"mcpServers":{}}' > .mcp.json; echo "mcp=$?"`,
          `echo work > work.txt && git add work.txt && git commit -qm work && echo committed`
        ].join("\n")
      )
      return Effect.gen(function* () {
        const done = yield* run(command)
        expect(done.output).toMatch(/settings=[1-9]/)
        expect(done.output).toMatch(/commands=[1-9]/)
        expect(done.output).toMatch(/hook=[1-9]/)
        expect(done.output).toMatch(/config=[1-9]/)
        expect(done.output).toContain("committed")
        expect(fs.readFileSync(nodePath.join(world.workspace, ".claude", "settings.json"), "utf8")).toBe("{}\n")
        expect(fs.existsSync(nodePath.join(world.workspace, ".git", "hooks", "pre-commit"))).toBe(false)
        expect(fs.readFileSync(nodePath.join(world.workspace, ".git", "config"), "utf8")).not.toContain("hooksPath")
        // A protected file the command created is not kept, and the model is told.
        expect(fs.existsSync(nodePath.join(world.workspace, ".mcp.json"))).toBe(false)
        expect(done.output).toContain(`file: removed ${world.workspace}/.mcp.json`)
      }).pipe(Effect.provide(sandboxedShell(world)))
    })
  })

  describe("a linked worktree", () => {
    it.live("commits into the repository's git directory, whose hooks and config stay read-only", () => {
      const world = makeWorld()
      const worktree = nodePath.join(world.root, "wt")
      const git = (...args: Array<string>) => spawnSync("git", args, { cwd: world.workspace, env: gitEnv(world.home), encoding: "utf8" })
      git("worktree", "add", "-q", "-b", "feature", worktree)
      const common = nodePath.join(world.workspace, ".git")
      return Effect.gen(function* () {
        const done = yield* run(
          [
            `echo change > change.txt && git add change.txt && git commit -qm change && echo committed`,
            `echo evil > "${common}/hooks/post-commit"; echo "hook=$?"`,
            `echo evil >> "${common}/config"; echo "config=$?"`
          ].join("; ")
        )
        expect(done.output).toContain("committed")
        expect(done.output).toMatch(/hook=[1-9]/)
        expect(done.output).toMatch(/config=[1-9]/)
        expect(git("log", "--oneline", "feature").stdout).toContain("change")
        expect(fs.existsSync(nodePath.join(common, "hooks", "post-commit"))).toBe(false)
      }).pipe(Effect.provide(sandboxedShell({ ...world, workspace: worktree })))
    })
  })

  describe("processes and sockets", () => {
    it.live("unix sockets, unshare, nsenter and ptrace are refused; weft is invisible", () => {
      const world = makeWorld()
      const socketPath = nodePath.join(world.workspace, "host.sock")
      const server = net.createServer((socket) => socket.end("from the host\n"))
      servers.push(server)
      const command = script(
        world,
        "breakout.sh",
        [
          `"${node}" -e 'require("net").connect(process.argv[1]).on("data", d => process.stdout.write("connected " + d)).on("error", e => console.log("unix " + e.code))' "${socketPath}"`,
          `unshare -U true 2>/dev/null; echo "unshare-user=$?"`,
          `unshare -r true 2>/dev/null; echo "unshare-root=$?"`,
          `unshare -m true 2>/dev/null; echo "unshare-mount=$?"`,
          `nsenter -t 1 -m true 2>/dev/null; echo "nsenter=$?"`,
          `kill -0 ${process.pid} 2>/dev/null; echo "weft-visible=$?"`,
          `test -e /proc/${process.pid}/environ; echo "weft-proc=$?"`,
          `"${node}" -e 'try { require("fs").readFileSync("/proc/1/mem") } catch (e) { console.log("mem " + e.code) }'`,
          // ptrace(PTRACE_TRACEME): allowed to any process without the filter.
          `perl -e 'my $r = syscall(${process.arch === "arm64" ? 117 : 101}, 0, 0, 0, 0); print "ptrace=", ($r == 0 ? "allowed" : "refused $!"), "\\n"'`
        ].join("\n")
      )
      return Effect.gen(function* () {
        yield* Effect.callback<void>((resume) => {
          server.listen(socketPath, () => resume(Effect.void))
        })
        const done = yield* run(command)
        expect(done.output).toContain("unix EPERM")
        expect(done.output).not.toContain("connected from the host")
        for (const name of ["unshare-user", "unshare-root", "unshare-mount", "nsenter", "weft-visible"]) {
          expect(done.output).toMatch(new RegExp(`${name}=[1-9]`))
        }
        // /proc shows the sandbox's own pid namespace: weft's pid is someone else's or no one's.
        expect(done.output).toMatch(/mem E/)
        expect(done.output).toContain("ptrace=refused")
      }).pipe(Effect.provide(sandboxedShell(world)))
    })

    it.live("a timeout and an interruption end everything the command started, one ignoring SIGTERM included", () => {
      const world = makeWorld()
      const marker = `weftstop${process.pid}x${Date.now()}`
      const command = `(trap "" TERM; exec -a ${marker} sleep 300) & bash -c 'trap "" TERM; exec -a ${marker}b sleep 300' & echo started > started; wait`
      return Effect.gen(function* () {
        const timedOut = yield* run(command, { timeoutMs: 500 })
        expect(timedOut.timedOut).toBe(true)
        expect(processesWith(marker)).toEqual([])
        fs.rmSync(nodePath.join(world.workspace, "started"))
        const fiber = yield* Effect.forkChild(run(command))
        for (let waited = 0; waited < 10_000 && !fs.existsSync(nodePath.join(world.workspace, "started")); waited += 10) {
          yield* Effect.sleep(10)
        }
        expect(processesWith(marker).length).toBeGreaterThan(0)
        yield* Fiber.interrupt(fiber)
        expect(processesWith(marker)).toEqual([])
      }).pipe(Effect.provide(sandboxedShell(world)))
    })

    it.live("allowAllUnixSockets lifts the unix socket filter", () => {
      const world = makeWorld()
      const socketPath = nodePath.join(world.workspace, "host.sock")
      const server = net.createServer((socket) => socket.end("from the host\n"))
      servers.push(server)
      return Effect.gen(function* () {
        yield* Effect.callback<void>((resume) => {
          server.listen(socketPath, () => resume(Effect.void))
        })
        const done = yield* run(
          `"${node}" -e 'require("net").connect(process.argv[1]).on("data", d => process.stdout.write("connected " + d)).on("error", e => console.log("unix " + e.code))' "${socketPath}"`
        )
        expect(done.output).toContain("connected from the host")
      }).pipe(Effect.provide(sandboxedShell(world, { network: { allowAllUnixSockets: true } })))
    })

    it.live("no network without the proxy: a host server on loopback is unreachable, names do not resolve", () => {
      const world = makeWorld()
      const server = net.createServer((socket) => socket.end("tcp from the host\n"))
      servers.push(server)
      return Effect.gen(function* () {
        const port = yield* listenOnLoopback(server)
        const done = yield* run(
          [
            `"${node}" -e 'require("net").connect(${port}, "127.0.0.1").on("data", d => process.stdout.write(String(d))).on("error", e => console.log("tcp " + e.code))'`,
            `"${node}" -e 'require("dns").lookup("example.com", (e, a) => console.log(e ? "dns " + e.code : "resolved " + a))'`
          ].join("; ")
        )
        expect(done.output).toContain("tcp ECONNREFUSED")
        expect(done.output).not.toContain("tcp from the host")
        expect(done.output).not.toContain("resolved")
      }).pipe(Effect.provide(sandboxedShell(world)))
    })
  })

  describe("network through weft's proxy", () => {
    /** An HTTP GET of `url` through the proxy the sandbox's variables name (any Node.js: no fetch proxy support needed). */
    const get = (url: string) =>
      `"${node}" -e 'const u = new URL(process.env.HTTP_PROXY); require("http").get({ host: u.hostname, port: u.port, path: process.argv[1] }, (r) => { let b = ""; r.on("data", (d) => b += d); r.on("end", () => console.log("status " + r.statusCode + " " + b.trim())) }).on("error", (e) => console.log("error " + e.code))' "${url}"`

    it.live("an allowed host is reached by name; an unlisted one refused and named; no direct route, no DNS, no unix sockets", () => {
      const world = makeWorld()
      const server = net.createServer((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 9\r\nconnection: close\r\n\r\nfrom host"))
      servers.push(server)
      return Effect.gen(function* () {
        const port = yield* listenOnLoopback(server)
        const done = yield* run(
          [
            get(`http://localhost:${port}/`),
            get(`http://127.0.0.2:${port}/`),
            get("http://unlisted.invalid/"),
            `"${node}" -e 'require("net").connect(${port}, "127.0.0.1").on("connect", () => console.log("direct connected")).on("error", (e) => console.log("direct " + e.code))'`,
            `"${node}" -e 'require("dns").lookup("localhost.invalid", (e) => console.log(e ? "dns " + e.code : "resolved"))'`,
            `"${node}" -e 'try { require("net").connect(process.env.TMPDIR + "/x.sock").on("error", (e) => console.log("unix " + e.code)) } catch (e) { console.log("unix " + e.code) }'`,
            // The bridge, outside the filter, cannot be driven through its memory.
            `for p in /proc/[0-9]*; do if [ "$(cat "$p/comm" 2>/dev/null)" = perl ]; then if (exec 5<>"$p/mem") 2>/dev/null; then echo "bridge mem opened"; else echo "bridge mem refused"; fi; fi; done`
          ].join("; ")
        )
        expect(done.output).toContain("status 200 from host")
        expect(done.output).toMatch(/status 403/)
        expect(done.output).toContain("direct ECONNREFUSED")
        expect(done.output).not.toContain("resolved")
        expect(done.output).toContain("unix EPERM")
        expect(done.output).toContain("bridge mem refused")
        expect(done.output).not.toContain("bridge mem opened")
        expect(done.output).toContain("<sandbox_violations>")
        expect(done.output).toContain("unlisted.invalid:80")
        expect(done.output).toContain(`127.0.0.2:${port}`)
      }).pipe(Effect.provide(sandboxedShell(world, { network: { allowedDomains: ["localhost"] } })))
    })

    it.live("without allowed hosts there is no proxy, and the model is told why the network failed", () => {
      const world = makeWorld()
      return Effect.gen(function* () {
        const done = yield* run(`"${node}" -e 'require("dns").lookup("example.com", (e) => { console.log(e ? "dns " + e.code : "resolved"); process.exit(e ? 1 : 0) })'`)
        expect(done.output).toMatch(/dns E/)
        expect(done.output).toContain("network: the sandbox has no network")
      }).pipe(Effect.provide(sandboxedShell(world)))
    })
  })

  describe("ordinary work", () => {
    it.live("node, a build writing in the workspace, temp files, git, a background shell", () => {
      const world = makeWorld()
      fs.writeFileSync(
        nodePath.join(world.workspace, "build.mjs"),
        `import fs from "node:fs"; fs.mkdirSync("dist", { recursive: true }); fs.writeFileSync("dist/out.js", "built"); console.log("build ok")\n`
      )
      return Effect.gen(function* () {
        const shell = yield* ShellSession
        const done = yield* run(
          [
            `"${node}" build.mjs`,
            `t=$(mktemp) && echo temp > "$t" && cat "$t"`,
            `echo "$TMPDIR" | grep -q weft-sbx && echo tmpdir-own`,
            `git status --short | head -3`,
            `cd dist && pwd`
          ].join(" && ")
        )
        expect(done.exitCode).toBe(0)
        expect(done.output).toContain("build ok")
        expect(done.output).toContain("temp")
        expect(done.output).toContain("tmpdir-own")
        expect(fs.readFileSync(nodePath.join(world.workspace, "dist", "out.js"), "utf8")).toBe("built")
        // The session's directory follows the command's `cd`, through the sandbox's own temp dir.
        expect(done.cwd).toBe(nodePath.join(world.workspace, "dist"))
        expect(done.output).not.toContain("<sandbox_violations>")
        const background = yield* shell.startBackground(`echo bg > bg.txt; echo "$$"`)
        for (let waited = 0; waited < 10_000 && !fs.existsSync(nodePath.join(world.workspace, "dist", "bg.txt")); waited += 10) {
          yield* Effect.sleep(10)
        }
        expect(background.id).toBe("bash_1")
        expect(fs.readFileSync(nodePath.join(world.workspace, "dist", "bg.txt"), "utf8")).toBe("bg\n")
      }).pipe(Effect.provide(sandboxedShell(world)))
    })

    it.live("a background shell's writes outside the workspace are refused too, and it ends with the session", () => {
      const world = makeWorld()
      const marker = `weftbg${process.pid}x${Date.now()}`
      return Effect.gen(function* () {
        yield* Effect.scoped(
          Effect.gen(function* () {
            const shell = yield* ShellSession
            yield* shell.startBackground(`echo x > "${world.outside}/bg.txt"; echo "rc=$?" > bg-rc; exec -a ${marker} sleep 300`)
            for (let waited = 0; waited < 10_000 && !fs.existsSync(nodePath.join(world.workspace, "bg-rc")); waited += 10) {
              yield* Effect.sleep(10)
            }
            expect(fs.readFileSync(nodePath.join(world.workspace, "bg-rc"), "utf8")).toMatch(/rc=[1-9]/)
          }).pipe(Effect.provide(sandboxedShell(world)))
        )
        expect(fs.existsSync(nodePath.join(world.outside, "bg.txt"))).toBe(false)
        expect(processesWith(marker)).toEqual([])
      })
    })

    it.live("excludedCommands run outside the sandbox; a line with any other command stays inside", () => {
      const world = makeWorld()
      return Effect.gen(function* () {
        const excluded = yield* run(`touch "${world.outside}/excluded.txt"`)
        expect(excluded.exitCode).toBe(0)
        expect(fs.existsSync(nodePath.join(world.outside, "excluded.txt"))).toBe(true)
        const mixed = yield* run(`touch "${world.outside}/mixed.txt" && echo x > "${world.outside}/mixed2.txt"`)
        expect(mixed.exitCode).not.toBe(0)
        expect(fs.existsSync(nodePath.join(world.outside, "mixed.txt"))).toBe(false)
      }).pipe(Effect.provide(sandboxedShell(world, { excludedCommands: ["touch:*"] })))
    })

    it.live("dangerouslyDisableSandbox (granted) runs the command outside", () => {
      const world = makeWorld()
      return Effect.gen(function* () {
        const done = yield* run(`echo out > "${world.outside}/granted.txt"`, { unsandboxed: true })
        expect(done.exitCode).toBe(0)
        expect(fs.readFileSync(nodePath.join(world.outside, "granted.txt"), "utf8")).toBe("out\n")
      }).pipe(Effect.provide(sandboxedShell(world)))
    })
  })
})

describe.skipIf(sandboxSkip !== undefined)("Hooks and the sandbox", () => {
  const hooksWith = (world: World, sandbox: Record<string, unknown>) => {
    const settings = Settings.layerFromValue(
      {
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `echo hooked > "${world.outside}/hook.txt"; echo "rc=$?" > hook-rc` }] }] },
        sandbox: { enabled: true, ...sandbox }
      },
      { projectDir: world.workspace, home: world.home }
    )
    return Hooks.layer().pipe(
      Layer.provide(Sandbox.layer({ workspaces: [world.workspace], weftHome: world.weftHome }).pipe(Layer.provide(settings))),
      Layer.provide(ChildEnvironment.layerNode),
      Layer.provide(settings)
    )
  }

  it.live("hooks' commands run outside the sandbox by default", () => {
    const world = makeWorld()
    return Effect.gen(function* () {
      const hooks = yield* Hooks.Hooks
      yield* hooks.sessionStart({ sessionId: "s-1", cwd: world.workspace, source: "startup" })
      expect(fs.readFileSync(nodePath.join(world.outside, "hook.txt"), "utf8")).toBe("hooked\n")
    }).pipe(Effect.provide(hooksWith(world, {})))
  })

  it.live("with sandbox.hooks, in it: their writes outside the workspace are refused", () => {
    const world = makeWorld()
    return Effect.gen(function* () {
      const hooks = yield* Hooks.Hooks
      yield* hooks.sessionStart({ sessionId: "s-1", cwd: world.workspace, source: "startup" })
      expect(fs.existsSync(nodePath.join(world.outside, "hook.txt"))).toBe(false)
      expect(fs.readFileSync(nodePath.join(world.workspace, "hook-rc"), "utf8")).toMatch(/rc=[1-9]/)
    }).pipe(Effect.provide(hooksWith(world, { hooks: true })))
  })
})

describe("Sandbox unavailable", () => {
  const world = () => makeWorld()
  const shellWith = (w: World, sandbox: Record<string, unknown>) => {
    const settings = Settings.layerFromValue({ sandbox: { enabled: true, ...sandbox } }, { projectDir: w.workspace, home: w.home })
    return ShellSession.layer({ cwd: w.workspace, graceMs: 300 }).pipe(
      Layer.provideMerge(Sandbox.layer({ workspaces: [w.workspace], bwrap: "/nonexistent/bwrap" }).pipe(Layer.provide(settings))),
      Layer.provide(ChildEnvironment.layerNode)
    )
  }

  it.live("refuses to run commands, saying why", () => {
    const w = world()
    return Effect.gen(function* () {
      const sandbox = yield* Sandbox.Sandbox
      expect(sandbox.state).toMatchObject({ _tag: "Unavailable", refuse: true })
      const exit = yield* Effect.exit(run(`echo x > "${w.outside}/ran.txt"`))
      expect(exit._tag).toBe("Failure")
      expect(String(exit._tag === "Failure" ? JSON.stringify(exit.cause) : "")).toContain("cannot start")
      expect(fs.existsSync(nodePath.join(w.outside, "ran.txt"))).toBe(false)
      expect(sandbox.note).toContain("refused")
    }).pipe(Effect.provide(shellWith(w, {})))
  })

  it.live("with failIfUnavailable: false, runs them unsandboxed and the model is told", () => {
    const w = world()
    return Effect.gen(function* () {
      const sandbox = yield* Sandbox.Sandbox
      expect(sandbox.state).toMatchObject({ _tag: "Unavailable", refuse: false })
      expect(sandbox.note).toContain("UNSANDBOXED")
      const done = yield* run("echo ran")
      expect(done.output).toMatch(/^ran\n\(weft: the command sandbox cannot start \(.+\); this command ran unsandboxed\.\)$/)
    }).pipe(Effect.provide(shellWith(w, { failIfUnavailable: false })))
  })

  it("a project's own failIfUnavailable: false does not count", () => {
    const config = SandboxConfig.fromSettings({
      ...Settings.empty("/p"),
      sources: [
        { scope: "project", origin: "/p/.claude/settings.json", root: "/p", settings: { sandbox: { enabled: true, failIfUnavailable: false } } }
      ]
    })
    expect(config.enabled).toBe(true)
    expect(config.failIfUnavailable).toBe(true)
  })
})

/**
 * The OS sandbox the model's shell commands run in: a service that turns a command's spawn (program, arguments,
 * environment) into the one to start instead, and says afterwards what it refused.
 *
 * Layers: `layer` (Linux: bubblewrap, with the seccomp filter of Seccomp.ts and, when a network part is given, the
 * network proxy's bridge), `layerNone` (commands run as they are), `layerUnavailable` (what `layer` becomes when the
 * sandbox was asked for and cannot start: commands are refused with the reason, or, with `failIfUnavailable: false`,
 * run unsandboxed and the model is told).
 *
 * Every command of a session shares one directory under the system's temp dir: its `tmp/` is the commands' $TMPDIR
 * (the only writable place besides the workspace and `allowWrite` paths), the seccomp program and the proxy's
 * sockets sit beside it. It is removed when the session ends.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { Settings } from "../context/Settings.js"
import { isInside } from "../permissions/PathGuard.js"
import * as Variables from "../platform/Variables.js"
import { procState, sleepLive } from "../tools/shell/ProcessGroup.js"
import * as Bwrap from "./Bwrap.js"
import * as SandboxConfig from "./SandboxConfig.js"
import * as Seccomp from "./Seccomp.js"

/** A process to start: what a caller hands to `wrap`, and what it gets back. */
export interface Spawn {
  readonly file: string
  readonly args: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
  /** Open file descriptors the child gets as its fds 3, 4, ... */
  readonly fds: ReadonlyArray<number>
}

export interface Wrapped {
  readonly spawn: Spawn
  /** Whether the command runs inside the sandbox. */
  readonly sandboxed: boolean
  /**
   * Once the process has exited: completes when everything it started inside the sandbox has ended too (bwrap can
   * exit while its init still ends the rest of the pid namespace). Bounded (2 s).
   */
  readonly settled: Effect.Effect<void>
  /**
   * Once the command is over: a note naming what the sandbox refused (`<sandbox_violations>` block), or "" when
   * nothing was. `output` is the command's output, in which refused writes show as "Read-only file system".
   */
  readonly report: (output: string) => Effect.Effect<string>
}

export type State =
  | { readonly _tag: "Off" }
  | { readonly _tag: "On" }
  /** Asked for and cannot start; `refuse`: commands are refused (else they run unsandboxed, and the model knows). */
  | { readonly _tag: "Unavailable"; readonly reason: string; readonly refuse: boolean }

/** A command the sandbox will not run. */
export class SandboxRefused extends Data.TaggedError("SandboxRefused")<{ readonly message: string }> {}

/** The network part: the proxy in weft's process and the bridge that reaches it from inside. */
export interface Network {
  /**
   * Per command, in its scope: a proxy listener on a unix socket in `directory` (visible inside at the same path),
   * the variables that point the command's clients at the bridge, the argv that starts the bridge before the
   * command (it runs `rest` once listening), and the refusals so far as note lines.
   */
  readonly listen: (directory: string) => Effect.Effect<
    {
      readonly env: Readonly<Record<string, string>>
      readonly prefix: ReadonlyArray<string>
      readonly violations: Effect.Effect<ReadonlyArray<string>>
    },
    SandboxRefused,
    Scope.Scope
  >
}

export interface Interface {
  readonly state: State
  readonly config: SandboxConfig.Config
  /** A directory the commands can write, for the shell's own scratch files; undefined when commands are not sandboxed. */
  readonly tempDir: string | undefined
  /**
   * The spawn to start for `spawn`, in the caller's scope (which must last as long as the process): sandboxed, or
   * as is when the sandbox is off, or `unsandboxed` was granted by the permission layer.
   */
  readonly wrap: (
    spawn: Spawn,
    options?: {
      readonly unsandboxed?: boolean
      /** The command line the spawn runs: one `excludedCommands` covers runs outside the sandbox. */
      readonly command?: string
    }
  ) => Effect.Effect<Wrapped, SandboxRefused, Scope.Scope>
  /** Whether `excludedCommands` covers every command of the line (it then runs outside the sandbox). */
  readonly excludes: (command: string) => Effect.Effect<boolean>
  /** What the model should be told about the sandbox (for the system prompt), if anything. */
  readonly note: string | undefined
}

const asIs = (spawn: Spawn): Wrapped => ({ spawn, sandboxed: false, settled: Effect.void, report: () => Effect.succeed("") })

/** No sandbox: every command runs as it is. */
export const none: Interface = {
  state: { _tag: "Off" },
  config: SandboxConfig.disabled,
  tempDir: undefined,
  wrap: (spawn) => Effect.succeed(asIs(spawn)),
  excludes: () => Effect.succeed(false),
  note: undefined
}

/** The sandbox was asked for and cannot start (see `state`). */
export const unavailable = (config: SandboxConfig.Config, reason: string): Interface => {
  const refuse = config.failIfUnavailable
  return {
    state: { _tag: "Unavailable", reason, refuse },
    config,
    tempDir: undefined,
    wrap: (spawn, options) =>
      refuse && options?.unsandboxed !== true
        ? Effect.fail(
            new SandboxRefused({
              message:
                `The command sandbox is enabled but cannot start (${reason}), so weft runs no commands. ` +
                "Install bubblewrap, or set sandbox.failIfUnavailable to false in your settings to run commands unsandboxed."
            })
          )
        : Effect.succeed(
            options?.unsandboxed === true
              ? asIs(spawn)
              : {
                  ...asIs(spawn),
                  // Told with every result, whatever system prompt the session has.
                  report: () => Effect.succeed(`(weft: the command sandbox cannot start (${reason}); this command ran unsandboxed.)`)
                }
          ),
    excludes: () => Effect.succeed(false),
    note: refuse
      ? `The command sandbox is enabled but cannot start (${reason}): Bash commands are refused until it can.`
      : `The command sandbox is enabled but cannot start (${reason}): Bash commands run UNSANDBOXED, with the user's full access.`
  }
}

/** Why bwrap cannot run here, or its version. */
export const detect = (bwrap: string = "bwrap"): { readonly version: Array<number> } | { readonly reason: string } => {
  if (process.platform !== "linux") return { reason: `no sandbox for ${process.platform} yet (bubblewrap is Linux only)` }
  if (Seccomp.currentArch() === undefined) return { reason: `no seccomp filter for ${process.arch}` }
  const version = spawnSync(bwrap, ["--version"], { encoding: "utf8", timeout: 5_000 })
  if (version.error !== undefined) return { reason: `bubblewrap (bwrap) is not installed: ${version.error.message}` }
  const numbers = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.stdout)
  const parsed = numbers === null ? [0, 0, 0] : [Number(numbers[1]), Number(numbers[2]), Number(numbers[3] ?? 0)]
  // User namespaces can be off (sysctl, AppArmor): a trial run says so before the first command does.
  const trial = spawnSync(
    bwrap,
    ["--unshare-user", "--unshare-net", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "true"],
    { encoding: "utf8", timeout: 10_000 }
  )
  if (trial.status !== 0) {
    const said = (trial.stderr ?? "").trim().split("\n")[0] ?? ""
    return { reason: `bubblewrap cannot create its namespaces here${said === "" ? "" : `: ${said}`}` }
  }
  return { version: parsed }
}

const atLeast = (version: ReadonlyArray<number>, wanted: ReadonlyArray<number>): boolean => {
  for (let index = 0; index < wanted.length; index++) {
    const have = version[index] ?? 0
    const want = wanted[index] ?? 0
    if (have !== want) return have > want
  }
  return true
}

/** `file` as an executable file on `path` (a PATH value), or `file` itself when it is a path to one. */
export const onPath = (file: string, path: string | undefined): string | undefined => {
  const candidates = file.includes("/") ? [file] : (path ?? "").split(nodePath.delimiter).filter((dir) => dir !== "").map((dir) => nodePath.join(dir, file))
  return candidates.find((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      return fs.statSync(candidate).isFile()
    } catch {
      return false
    }
  })
}

/**
 * Applies the seccomp program read from fd 3 to itself, then runs its arguments: used only when the network
 * bridge runs first inside the sandbox, since the bridge opens unix sockets to reach the proxy and the filter must
 * cover the command alone. perl is part of every Debian-based system (perl-base is essential); the syscall numbers
 * are prctl's on x86_64 and aarch64.
 */
const applySeccompPerl = (arch: Seccomp.Arch): ReadonlyArray<string> => [
  "perl",
  "-e",
  [
    `open(my $f, "<&=", 3) or die "weft sandbox: no filter: $!\\n"; binmode $f; local $/; my $p = <$f>; close $f;`,
    `my $prctl = ${arch === "x64" ? 157 : 167};`,
    `syscall($prctl, 38, 1, 0, 0, 0) == 0 or die "weft sandbox: no_new_privs: $!\\n";`,
    `my $prog = pack("S x![p] p", length($p) / 8, $p);`,
    `syscall($prctl, 22, 2, $prog, 0, 0) == 0 or die "weft sandbox: seccomp: $!\\n";`,
    `exec { $ARGV[0] } @ARGV or die "weft sandbox: cannot run $ARGV[0]: $!\\n";`
  ].join(" "),
  "--"
]

/**
 * Waits (at most 2 s, polling) until the sandbox's init process, named in bwrap's info file, is gone or a zombie:
 * the kernel ends every other process of the pid namespace before that, so nothing the command started is left.
 */
const awaitNamespaceEnd = (infoPath: string): Effect.Effect<void> =>
  Effect.suspend(() => {
    let pid: number | undefined
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(infoPath, "utf8"))
      if (typeof parsed === "object" && parsed !== null && "child-pid" in parsed && typeof parsed["child-pid"] === "number") {
        pid = parsed["child-pid"]
      }
    } catch {
      return Effect.void
    }
    if (pid === undefined) return Effect.void
    const init = pid
    const poll = (remaining: number): Effect.Effect<void> => {
      const state = procState(init)
      if (state === undefined || state === "Z" || remaining <= 0) return Effect.void
      return Effect.andThen(sleepLive(1), Effect.suspend(() => poll(remaining - 1)))
    }
    return poll(2_000)
  })

/** What a client says when it finds no network (no DNS, no route). */
const noNetwork = /could not resolve host|ENOTFOUND|EAI_AGAIN|temporary failure in name resolution|network is unreachable|ENETUNREACH/i

/** Absolute paths in the lines of `output` that say "Read-only file system" (a refused write). */
export const refusedWrites = (output: string): ReadonlyArray<string> => {
  const paths = new Set<string>()
  for (const line of output.split("\n")) {
    if (!/read-only file system/i.test(line)) continue
    for (const match of line.matchAll(/(?:^|[\s'"`(=:])(\/[^\s'"`:,)]*)/g)) {
      const path = match[1]
      if (path !== undefined && path.length > 1) paths.add(path)
    }
  }
  return [...paths].slice(0, 10)
}

export interface Options {
  /** The directories commands work in (the session's cwd, then `--add-dir` ones): writable. */
  readonly workspaces: ReadonlyArray<string>
  /** `--sandbox`: on for this run. */
  readonly flag?: boolean
  /** `--allowedTools` / `--disallowedTools`, which feed the lists as the settings' rules do. */
  readonly cliAllowed?: ReadonlyArray<string>
  readonly cliDenied?: ReadonlyArray<string>
  /** The network proxy and its bridge; none: the commands have no network at all (loopback only). */
  readonly network?: Network
  /**
   * Whether a command line matches Bash rule patterns, every command of it (the permission layer's parser); without
   * one, `excludedCommands` excludes nothing.
   */
  readonly matchesPatterns?: (command: string, patterns: ReadonlyArray<string>) => Effect.Effect<boolean>
  /** The bwrap to run; default `bwrap` from PATH. */
  readonly bwrap?: string
  /** Where the session's directory goes; default the system's temp dir. */
  readonly tempRoot?: string
  /** weft's home, hidden inside; default `$WEFT_HOME`, else `~/.weft`. */
  readonly weftHome?: string
}

/** The sandbox the settings (and the flag) ask for: bubblewrap when it can start, else `unavailable`. */
export const make = (options: Options): Effect.Effect<Interface, never, Settings | Scope.Scope> =>
  Effect.gen(function* () {
    const settings = yield* Settings
    if (!SandboxConfig.isEnabled(settings, options.flag)) return none
    const configured = SandboxConfig.fromSettings(settings, {
      ...(options.flag === undefined ? {} : { flag: options.flag }),
      ...(options.cliAllowed === undefined ? {} : { cliAllowed: options.cliAllowed }),
      ...(options.cliDenied === undefined ? {} : { cliDenied: options.cliDenied })
    })
    if (!configured.enabled) return { ...none, config: configured }
    // The network: weft's proxy when some host is allowed (its modules loaded only then), else none at all.
    let network = options.network
    const networkWarnings: Array<string> = []
    if (network === undefined && configured.network.allowedDomains.length > 0) {
      const module = yield* Effect.promise(() => import("./SandboxNetwork.js"))
      const made = yield* module.make({ allowedDomains: configured.network.allowedDomains, deniedDomains: configured.network.deniedDomains })
      network = made.network
      networkWarnings.push(...made.invalid)
    }
    const config: SandboxConfig.Config = { ...configured, warnings: [...configured.warnings, ...networkWarnings] }
    const bwrap = options.bwrap ?? "bwrap"
    const found = detect(bwrap)
    if ("reason" in found) return unavailable(config, found.reason)
    const arch = Seccomp.currentArch()
    if (arch === undefined) return unavailable(config, `no seccomp filter for ${process.arch}`)
    if (network !== undefined && onPath("perl", yield* Variables.value("PATH")) === undefined) {
      return unavailable(config, "the network proxy's bridge needs perl to apply the seccomp filter after it starts")
    }
    const home = settings.home
    const weftHome = options.weftHome ?? (yield* Variables.weftHomeOf(home))

    // The session's directory: short (a unix socket's path is at most 107 bytes), and gone when the session is.
    const root = yield* Effect.acquireRelease(
      Effect.sync(() => fs.realpathSync(fs.mkdtempSync(nodePath.join(options.tempRoot ?? os.tmpdir(), "weft-sbx-")))),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )
    const tempDir = nodePath.join(root, "tmp")
    const emptyDir = nodePath.join(root, "empty")
    const filterPath = nodePath.join(root, "seccomp.bpf")
    const allowUnix = config.network.allowAllUnixSockets || config.network.allowUnixSockets.length > 0
    yield* Effect.sync(() => {
      fs.mkdirSync(tempDir)
      fs.mkdirSync(emptyDir, { mode: 0o555 })
      fs.writeFileSync(filterPath, Seccomp.program({ arch, allowUnixSockets: allowUnix }), { mode: 0o444 })
    })

    // Mount points bwrap made in a workspace for protected directories that did not exist: removed only once no
    // command runs, since removing one on the host detaches it in a sandbox still running.
    let running = 0
    const mountPoints = new Set<string>()
    const removeMountPoints = Effect.sync(() => {
      if (running > 0) return
      for (const path of mountPoints) {
        try {
          fs.rmdirSync(path)
        } catch {
          // not empty, or gone: left as it is
        }
      }
      mountPoints.clear()
    })
    yield* Effect.addFinalizer(() => removeMountPoints)

    let commandCounter = 0
    const excludes = (command: string): Effect.Effect<boolean> =>
      config.excludedCommands.length === 0 || options.matchesPatterns === undefined
        ? Effect.succeed(false)
        : options.matchesPatterns(command, config.excludedCommands)
    const wrap: Interface["wrap"] = Effect.fn("Sandbox.wrap")(function* (
      spawn: Spawn,
      wrapOptions?: { readonly unsandboxed?: boolean; readonly command?: string }
    ) {
      if (wrapOptions?.unsandboxed === true) return asIs(spawn)
      if (wrapOptions?.command !== undefined && (yield* excludes(wrapOptions.command))) return asIs(spawn)
      const plan: Bwrap.Plan = {
        workspaces: options.workspaces,
        tempDir,
        home,
        weftHome,
        allowWrite: config.filesystem.allowWrite,
        denyWrite: config.filesystem.denyWrite,
        denyRead: config.filesystem.denyRead,
        allowRead: config.filesystem.allowRead,
        emptyDir,
        gitDirs: options.workspaces.flatMap(Bwrap.linkedGitDirs),
        disableUserns: atLeast(found.version, [0, 8, 0]),
        seccompFd: network === undefined ? 3 : undefined,
        // The host's sockets under /run (docker, dbus, resolvers, the user's agents) hidden as well as refused.
        hideRun: !allowUnix && !isInside(root, "/run")
      }
      const mounts = Bwrap.mounts(plan)
      const filterFd = yield* Effect.acquireRelease(
        Effect.sync(() => fs.openSync(filterPath, "r")),
        (fd) => Effect.sync(() => fs.closeSync(fd))
      )
      // bwrap writes the host pid of the sandbox's init here: the command is over once that process is.
      const infoPath = nodePath.join(root, `info-${++commandCounter}.json`)
      const infoFd = yield* Effect.acquireRelease(
        Effect.sync(() => fs.openSync(infoPath, "w", 0o600)),
        (fd) =>
          Effect.sync(() => {
            fs.closeSync(fd)
            fs.rmSync(infoPath, { force: true })
          })
      )
      const listener = network === undefined ? undefined : yield* network.listen(root)
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          running++
          for (const path of mounts.mountPoints) mountPoints.add(path)
        }),
        () =>
          Effect.andThen(
            Effect.sync(() => {
              running--
            }),
            removeMountPoints
          )
      )
      const inner = listener === undefined ? [] : [...listener.prefix, ...applySeccompPerl(arch)]
      const wrapped: Spawn = {
        file: bwrap,
        args: [...mounts.args, "--info-fd", "4", "--chdir", spawn.cwd, "--", ...inner, spawn.file, ...spawn.args],
        env: { ...spawn.env, TMPDIR: tempDir, ...(listener?.env ?? {}) },
        cwd: spawn.cwd,
        fds: [filterFd, infoFd, ...spawn.fds]
      }
      const report = (output: string) =>
        Effect.gen(function* () {
          // bwrap may exit as soon as the command has, while its init still ends the rest: wait for that.
          yield* awaitNamespaceEnd(infoPath)
          const lines: Array<string> = []
          if (listener !== undefined) lines.push(...(yield* listener.violations))
          else if (noNetwork.test(output)) {
            lines.push("network: the sandbox has no network (sandbox.network.allowedDomains lists no host)")
          }
          for (const path of refusedWrites(output)) lines.push(`file: refused writing ${path} (read-only in the sandbox)`)
          for (const path of mounts.missingProtected) {
            if (!fs.existsSync(path)) continue
            // The command created a file the agent reads as its own configuration: not kept.
            fs.rmSync(path, { recursive: true, force: true })
            lines.push(`file: removed ${path}, which the command created (the agent's configuration is read-only in the sandbox)`)
          }
          return lines.length === 0 ? "" : `<sandbox_violations>\n${lines.join("\n")}\n</sandbox_violations>`
        })
      return { spawn: wrapped, sandboxed: true, settled: awaitNamespaceEnd(infoPath), report } satisfies Wrapped
    })

    const writable = ["the workspace", "$TMPDIR", ...config.filesystem.allowWrite].join(", ")
    const networkNote =
      network === undefined
        ? "no network (loopback only)"
        : `network only to ${config.network.allowedDomains.length === 0 ? "no host" : config.network.allowedDomains.join(", ")} (through a proxy set in HTTP_PROXY/HTTPS_PROXY)`
    const interface_: Interface = {
      state: { _tag: "On" },
      config,
      tempDir,
      wrap,
      excludes,
      note:
        `Bash commands run in a sandbox: they may write only in ${writable}; the agent's configuration ` +
        "(.claude/, .mcp.json, .git/hooks, .git/config) is read-only; credentials (~/.ssh, ~/.aws, ...) are hidden; " +
        `${networkNote}; unix sockets, ptrace and new namespaces are refused; processes a command starts end with it. ` +
        "When the sandbox refuses something, the result ends with a <sandbox_violations> block naming it: explain it " +
        "to the user rather than working around it."
    }
    return interface_
  })

export class Sandbox extends Context.Service<Sandbox, Interface>()("weft/Sandbox") {
  static make = make
  /** The sandbox the settings ask for, for the session's lifetime (its directory is removed when it ends). */
  static layer = (options: Options): Layer.Layer<Sandbox, never, Settings> => Layer.effect(Sandbox, make(options))
  /** Commands run as they are. */
  static layerNone: Layer.Layer<Sandbox> = Layer.succeed(Sandbox, none)
  /** Asked for, and cannot start (`reason`): commands refused, or unsandboxed when `failIfUnavailable` is false. */
  static layerUnavailable = (config: SandboxConfig.Config, reason: string): Layer.Layer<Sandbox> =>
    Layer.succeed(Sandbox, unavailable(config, reason))
}

export const layer = Sandbox.layer
export const layerNone = Sandbox.layerNone
export const layerUnavailable = Sandbox.layerUnavailable

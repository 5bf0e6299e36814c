/**
 * Wrappers seen through with their own options: the exact command each one runs, its own words, whether it is
 * transparent, and the cases where it runs nothing (itself) or a shell string (unanalysable). Options are listed
 * here from the programs' own manuals (GNU coreutils, findutils, util-linux, procps-ng, sudo, doas), not from the
 * module's table, so that a wrong entry there shows.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"
import { unwrap, wrapperNames } from "../../src/permissions/ShellWrappers.js"

const words = (line: string): ReadonlyArray<ShellCommand.Word> =>
  line
    .split(" ")
    .filter((word) => word !== "")
    .map((word) => (word.startsWith("$") ? ShellCommand.unknownWord(word) : ShellCommand.wordOf(word)))

const text = (argv: ReadonlyArray<ShellCommand.Word>) => argv.map((word) => ShellCommand.literal(word) ?? `<${word.source}>`).join(" ")

/** What `unwrap` makes of a line: the command it runs, "itself", an unanalysable kind, or "none" (no wrapper). */
const reading = (line: string): string => {
  const unwrapped = unwrap(words(line))
  if (unwrapped === undefined) return "none"
  if (unwrapped._tag !== "Runs") return unwrapped._tag === "Itself" ? "itself" : unwrapped.kind
  return text(unwrapped.argv)
}

interface WrapperOptions {
  /** The wrapper and what it needs before the command (timeout's duration, chroot's root, `-x` for watch). */
  readonly head: string
  readonly flags: ReadonlyArray<string>
  /** Options taking the next word (or an attached one) as their value. */
  readonly values: ReadonlyArray<string>
  /** Long options whose value is only given with `=`. */
  readonly optional?: ReadonlyArray<string>
  readonly transparent: boolean
}

const wrappers: ReadonlyArray<WrapperOptions> = [
  {
    head: "env",
    flags: ["-i", "-0", "-v", "--ignore-environment", "--null", "--debug", "--help", "--version"],
    values: ["-u", "-C", "--unset", "--chdir"],
    optional: ["--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"],
    transparent: true
  },
  {
    head: "sudo",
    flags: ["-A", "-b", "-E", "-H", "-n", "-P", "-S", "-B", "-N", "--askpass", "--background", "--bell", "--preserve-env", "--set-home", "--non-interactive", "--preserve-groups", "--stdin"],
    values: [
      "-C", "-D", "-g", "-h", "-p", "-r", "-t", "-T", "-U", "-u", "--close-from", "--chdir", "--group", "--host", "--prompt", "--chroot", "--role", "--type",
      "--command-timeout", "--other-user", "--user"
    ],
    transparent: false
  },
  { head: "doas", flags: ["-n"], values: ["-C", "-u"], transparent: false },
  { head: "nice", flags: ["--help", "--version"], values: ["-n", "--adjustment"], transparent: true },
  { head: "nohup", flags: ["--help", "--version"], values: [], transparent: true },
  {
    head: "timeout 5",
    flags: ["-f", "-p", "-v", "--foreground", "--preserve-status", "--verbose", "--help", "--version"],
    values: ["-k", "-s", "--kill-after", "--signal"],
    transparent: true
  },
  {
    head: "watch -x",
    flags: ["-b", "-c", "-C", "-d", "-e", "-g", "-h", "-p", "-r", "-t", "-w", "--beep", "--color", "--no-color", "--errexit", "--chgexit", "--no-title", "--precise", "--no-wrap", "--no-linewrap", "--help", "--version"],
    values: ["-n", "-q", "--interval", "--equexit", "--shotsdir"],
    optional: ["--differences"],
    transparent: true
  },
  { head: "command", flags: ["-p"], values: [], transparent: true },
  { head: "builtin", flags: [], values: [], transparent: true },
  { head: "exec", flags: ["-c", "-l"], values: ["-a"], transparent: true },
  { head: "setsid", flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait", "--help", "--version"], values: [], transparent: true },
  { head: "stdbuf", flags: ["--help", "--version"], values: ["-i", "-o", "-e", "--input", "--output", "--error"], transparent: true },
  {
    head: "time",
    flags: ["-a", "-p", "-q", "-v", "--append", "--portability", "--quiet", "--verbose", "--help", "--version"],
    values: ["-f", "-o", "--format", "--output"],
    transparent: true
  },
  { head: "ionice", flags: ["-t", "-h", "--ignore", "--help", "--version"], values: ["-c", "-n", "--class", "--classdata"], transparent: true },
  { head: "chroot /srv", flags: ["--skip-chdir", "--help", "--version"], values: ["--groups", "--userspec"], transparent: false },
  { head: "taskset 0x3", flags: ["-a", "-c", "--all-tasks", "--cpu-list", "--help", "--version"], values: [], transparent: true },
  {
    head: "flock /tmp/lock",
    flags: ["-s", "-x", "-u", "-n", "-o", "-F", "-h", "-V", "--shared", "--exclusive", "--unlock", "--nonblock", "--close", "--no-fork", "--verbose", "--help", "--version"],
    values: ["-w", "-E", "--timeout", "--conflict-exit-code"],
    transparent: true
  },
  { head: "busybox", flags: [], values: [], transparent: true }
]

/** `timeout 5 -s KILL` is no option: options come before the wrapper's operands. Options go right after the name. */
const withOption = (head: string, option: string) => {
  const [name, ...operands] = head.split(" ")
  // watch needs -x before any other option only for the test's sake: keep it first.
  if (name === "watch") return `watch -x ${option}`
  return [name, option, ...operands].join(" ")
}

describe("ShellWrappers.unwrap: each option of each wrapper, the command found after it", () => {
  for (const wrapper of wrappers) {
    it(`${wrapper.head}: no option, flags, options with values, optional values`, () => {
      expect(reading(`${wrapper.head} rm -rf x`)).toBe("rm -rf x")
      for (const flag of wrapper.flags) expect({ flag, runs: reading(`${withOption(wrapper.head, flag)} rm -rf x`) }).toEqual({ flag, runs: "rm -rf x" })
      for (const option of wrapper.values) {
        expect({ option, runs: reading(`${withOption(wrapper.head, option)} 7 rm -rf x`) }).toEqual({ option, runs: "rm -rf x" })
        const attached = option.startsWith("--") ? `${option}=7` : `${option}7`
        expect({ attached, runs: reading(`${withOption(wrapper.head, attached)} rm -rf x`) }).toEqual({ attached, runs: "rm -rf x" })
      }
      for (const option of wrapper.optional ?? []) {
        expect({ option, runs: reading(`${withOption(wrapper.head, option)} rm -rf x`) }).toEqual({ option, runs: "rm -rf x" })
        expect({ option, runs: reading(`${withOption(wrapper.head, `${option}=7`)} rm -rf x`) }).toEqual({ option, runs: "rm -rf x" })
      }
      // An option it does not take: the command cannot be told.
      expect(reading(`${withOption(wrapper.head, "--frobnicate")} rm x`)).toBe("UnknownWrapperOption")
    })

    it(`${wrapper.head}: its own words, the command's excluded, and whether it is transparent`, () => {
      const unwrapped = unwrap(words(`${wrapper.head} rm x`))
      expect(unwrapped?._tag).toBe("Runs")
      if (unwrapped?._tag !== "Runs") return
      expect(text(unwrapped.wrapperArgv)).toBe(wrapper.head)
      expect(unwrapped.transparent).toBe(wrapper.transparent)
      expect(unwrapped.assignments).toEqual([])
    })
  }

  it("knows exactly these wrappers", () => {
    expect([...wrapperNames].sort()).toEqual(
      ["busybox", "builtin", "chroot", "command", "doas", "env", "exec", "flock", "ionice", "nice", "nohup", "setsid", "stdbuf", "sudo", "taskset", "time", "timeout", "watch", "xargs"].sort()
    )
  })
})

const cases: ReadonlyArray<readonly [line: string, reading: string]> = [
  // No wrapper: no reading (names that are properties of every object included).
  ["rm x", "none"],
  ["toString rm x", "none"],
  ["constructor rm x", "none"],
  ["hasOwnProperty rm x", "none"],
  ["$W rm x", "none"],
  // `--` ends the options: what follows is the command, even if it looks like an option.
  ["nice -- rm x", "rm x"],
  ["nice -n 5 -- -rm x", "-rm x"],
  ["timeout -- 5 rm x", "rm x"],
  // Clustered short flags, and a value attached to the last.
  ["timeout -fvk1 5 rm x", "rm x"],
  ["sudo -nEu root rm x", "rm x"],
  // Unique abbreviations of GNU long options; doas, command, exec and builtin take none.
  ["timeout --sig KILL 5 rm x", "rm x"],
  ["timeout --pre 5 rm x", "rm x"],
  ["env --block INT rm x", "INT rm x"],
  ["sudo --us root rm x", "rm x"],
  // Ambiguous abbreviations and values given to flags are unknown.
  ["timeout --ver 5 rm x", "UnknownWrapperOption"],
  ["timeout --verbose=1 5 rm x", "UnknownWrapperOption"],
  ["timeout -s", "UnknownWrapperOption"],
  ["timeout -q 5 rm x", "UnknownWrapperOption"],
  // Nothing to run: the wrapper is the command.
  ["nice", "itself"],
  ["nohup", "itself"],
  ["timeout 5", "itself"],
  ["timeout", "itself"],
  ["chroot /srv", "itself"],
  ["env", "itself"],
  ["env -i", "itself"],
  ["env FOO=1", "itself"],
  ["command -v rm", "itself"],
  ["command -V rm", "itself"],
  ["command -pv rm", "itself"],
  ["sudo -l", "itself"],
  ["sudo -l rm x", "itself"],
  ["sudo --list", "itself"],
  ["sudo -v", "itself"],
  ["sudo --validate", "itself"],
  ["sudo -k", "itself"],
  // sudo -k with a command runs it (ignoring cached credentials).
  ["sudo -k rm x", "rm x"],
  ["sudo --reset-timestamp rm x", "rm x"],
  ["sudo -K rm x", "itself"],
  ["sudo --remove-timestamp rm x", "itself"],
  ["sudo --list rm x", "itself"],
  ["sudo -v rm x", "itself"],
  ["sudo --validate rm x", "itself"],
  ["sudo --help rm x", "itself"],
  ["sudo --version rm x", "itself"],
  ["doas -L rm x", "itself"],
  ["ionice -P 42 rm x", "itself"],
  ["ionice -u 1000 rm x", "itself"],
  ["ionice --pid 42 rm x", "itself"],
  ["ionice --pgid 42 rm x", "itself"],
  ["ionice --uid 1000 rm x", "itself"],
  ["ionice -p 42 rm x", "itself"],
  ["sudo -K", "itself"],
  ["sudo --remove-timestamp", "itself"],
  ["sudo --reset-timestamp", "itself"],
  ["sudo --help", "itself"],
  ["sudo --version", "itself"],
  ["sudo -s", "itself"],
  ["sudo -i", "itself"],
  ["sudo --login", "itself"],
  ["sudo --shell", "itself"],
  ["doas -L", "itself"],
  ["doas -s", "itself"],
  ["ionice -p 42", "itself"],
  ["ionice -c 3 -p 42", "itself"],
  ["ionice -P 42", "itself"],
  ["ionice -u 1000", "itself"],
  ["ionice --pid 42", "itself"],
  ["ionice --pgid 42", "itself"],
  ["ionice --uid 1000", "itself"],
  ["taskset -p 0x3 42", "itself"],
  ["taskset --pid 0x3 42", "itself"],
  ["watch -x", "itself"],
  ["watch", "itself"],
  // A shell string: unanalysable.
  ["sudo -s rm x", "ShellString"],
  ["sudo -i rm x", "ShellString"],
  ["sudo --login rm x", "ShellString"],
  ["sudo --shell rm x", "ShellString"],
  ["doas -s rm x", "ShellString"],
  ["env -S 'rm x'", "ShellString"],
  ["env -S", "UnknownWrapperOption"],
  ["env --split-string=rm", "ShellString"],
  ["watch rm x", "ShellString"],
  ["watch -n 1 rm x", "ShellString"],
  ["watch --exec rm x", "rm x"],
  ["flock -c rm /tmp/lock", "ShellString"],
  ["flock --command rm /tmp/lock", "ShellString"],
  ["flock -c", "UnknownWrapperOption"],
  ["flock -c rm", "ShellString"],
  ["flock --command=rm", "ShellString"],
  ["flock -n -c rm", "ShellString"],
  // `flock file -c command` is the usual form: the command is a shell string there too.
  ["flock /tmp/lock -c rm", "ShellString"],
  ["flock /tmp/lock --command rm", "ShellString"],
  ["flock -n /tmp/lock -c rm", "ShellString"],
  ["flock /tmp/lock -x rm", "-x rm"],
  ["flock /tmp/lock", "itself"],
  ["flock /tmp/lock -c", "ShellString"],
  ["timeout 5 -c rm", "-c rm"],
  // A name built at run time where an option may stand: unknown.
  ["sudo $OPTS rm x", "UnknownWrapperOption"],
  ["env -u $NAME rm x", "UnknownWrapperOption"],
  ["env --unset $NAME rm x", "UnknownWrapperOption"],
  ["env -u HOME rm x", "rm x"],
  ["env -C $DIR rm x", "rm x"],
  // xargs: the command gets the input's words after its own; none given is echo.
  ["xargs", "echo <<xargs input>>"],
  ["xargs -0", "echo <<xargs input>>"],
  ["xargs rm -f", "rm -f <<xargs input>>"],
  ["xargs -0 -n 1 -P 4 rm", "rm <<xargs input>>"],
  ["xargs -I {} mv {} dir", "mv {} dir <<xargs input>>"],
  ["xargs -i rm", "rm <<xargs input>>"],
  ["xargs -i{} rm {}", "rm {} <<xargs input>>"],
  ["xargs -l rm", "rm <<xargs input>>"],
  ["xargs -e rm", "rm <<xargs input>>"],
  ["xargs -L 2 -E END -s 100 -d , -a list rm", "rm <<xargs input>>"],
  ["xargs -r -t -p -x -o rm", "rm <<xargs input>>"],
  ["xargs --null --no-run-if-empty --verbose --interactive --exit --open-tty --show-limits rm", "rm <<xargs input>>"],
  ["xargs --arg-file list --delimiter , --max-args 1 --max-procs 2 --max-chars 99 --process-slot-var S rm", "rm <<xargs input>>"],
  ["xargs --eof rm", "rm <<xargs input>>"],
  ["xargs --replace rm {}", "rm {} <<xargs input>>"],
  ["xargs --replace={} rm {}", "rm {} <<xargs input>>"],
  // GNU xargs' --max-lines takes its value only with `=`: `xargs --max-lines rm` runs rm.
  ["xargs --max-lines rm", "rm <<xargs input>>"],
  ["xargs --max-lines=2 rm", "rm <<xargs input>>"],
  ["xargs --help", "echo <<xargs input>>"],
  ["xargs --version rm", "rm <<xargs input>>"],
  // GNU env's signal options take their value only with `=`: `env --block-signal rm x` runs rm x.
  ["env --block-signal rm x", "rm x"],
  ["env --default-signal=INT rm x", "rm x"],
  ["env --ignore-signal rm x", "rm x"],
  // procps-ng watch: -q (--equexit) takes a number of cycles.
  ["watch -x -q 3 rm x", "rm x"],
  ["watch -xq3 rm x", "rm x"],
  ["watch -x --differences rm x", "rm x"],
  ["watch -x --differences=permanent rm x", "rm x"],
  // Wrappers in a row: unwrap reads only the first.
  ["sudo timeout 5 rm x", "timeout 5 rm x"],
  ["nice nice rm x", "nice rm x"]
]

describe("ShellWrappers.unwrap: the command run, or why there is none", () => {
  for (const [line, expected] of cases) {
    it(`${JSON.stringify(line)} -> ${expected}`, () => {
      expect(reading(line)).toBe(expected)
    })
  }

  it("an empty argv, or a first word known only at run time, is no wrapper", () => {
    expect(unwrap([])).toBeUndefined()
    expect(unwrap([{ source: "\"$W\"", value: undefined, glob: false, brace: false, tilde: false }, ShellCommand.wordOf("rm")])).toBeUndefined()
    expect(unwrap([{ source: "s*do", value: "s*do", glob: true, brace: false, tilde: false }, ShellCommand.wordOf("rm")])).toBeUndefined()
  })

  it("env's assignments are the command's environment, their values the rest of the word", () => {
    const unwrapped = unwrap(words("env -i FOO=1 BAR= BAZ=a=b rm x"))
    expect(unwrapped?._tag).toBe("Runs")
    if (unwrapped?._tag !== "Runs") return
    expect(unwrapped.assignments.map((assignment) => [assignment.name, assignment.value.value])).toEqual([["FOO", "1"], ["BAR", ""], ["BAZ", "a=b"]])
    expect(unwrapped.assignments.map((assignment) => assignment.value.source)).toEqual(["FOO=1", "BAR=", "BAZ=a=b"])
    expect(text(unwrapped.wrapperArgv)).toBe("env -i FOO=1 BAR= BAZ=a=b")
    expect(text(unwrapped.argv)).toBe("rm x")
  })

  it("env reads assignments only up to the command; words that are no assignment start it", () => {
    expect(reading("env FOO=1 rm BAR=2")).toBe("rm BAR=2")
    expect(reading("env 1X=2 rm")).toBe("1X=2 rm")
    expect(reading("env =x rm")).toBe("=x rm")
    expect(reading("env A=1 $X=1 rm")).toBe("<$X=1> rm")
    const multiline = unwrap([ShellCommand.wordOf("env"), ShellCommand.wordOf("A=x\ny"), ShellCommand.wordOf("rm")])
    expect(multiline?._tag === "Runs" && multiline.assignments.map((assignment) => [assignment.name, assignment.value.value])).toEqual([["A", "x\ny"]])
    // Only env takes assignments: `nice FOO=1 rm` runs a program named FOO=1.
    expect(reading("nice FOO=1 rm")).toBe("FOO=1 rm")
    const nice = unwrap(words("nice FOO=1 rm"))
    expect(nice?._tag === "Runs" && nice.assignments).toEqual([])
  })

  it("xargs' own words include everything before the command; with no command, all of them", () => {
    const some = unwrap(words("xargs -0 rm -f"))
    expect(some?._tag === "Runs" && text(some.wrapperArgv)).toBe("xargs -0")
    const none = unwrap(words("xargs -0"))
    expect(none?._tag === "Runs" && text(none.wrapperArgv)).toBe("xargs -0")
    expect(none?._tag === "Runs" && none.argv.map((word) => [word.source, word.value])).toEqual([["echo", "echo"], ["<xargs input>", undefined]])
  })
})

// Through the whole analysis and the rules: a deny for the command applies through every wrapper reading.
const decisions: ReadonlyArray<readonly [line: string, deny: string, expected: ShellCommand.RuleDecision["_tag"]]> = [
  ["env --block-signal rm -rf x", "rm:*", "Deny"],
  ["xargs --max-lines rm -rf < list", "rm:*", "Deny"],
  ["watch -x -q 3 rm -rf x", "rm:*", "Deny"],
  ["flock /tmp/lock -c 'rm -rf x'", "rm:*", "Deny"],
  ["flock /tmp/lock rm -rf x", "rm:*", "Deny"],
  ["flock /tmp/lock ls", "rm:*", "NoRule"],
  ["stdbuf --output=L rm -rf x", "rm:*", "Deny"],
  ["time -p rm -rf x", "rm:*", "Deny"],
  ["taskset -c 0 rm -rf x", "rm:*", "Deny"],
  ["ionice -t rm -rf x", "rm:*", "Deny"],
  ["doas -u root rm -rf x", "rm:*", "Deny"],
  ["busybox rm -rf x", "rm:*", "Deny"],
  ["sudo -k rm -rf x", "rm:*", "Deny"]
]

describe("wrappers through analyze and decide", () => {
  for (const [line, deny, expected] of decisions) {
    it.effect(`${JSON.stringify(line)} deny=${deny} -> ${expected}`, () =>
      Effect.gen(function* () {
        const analysis = yield* ShellCommand.analyze(line)
        const parsed = ShellCommand.parseRule(deny)
        if (parsed._tag === "Invalid") throw new Error(parsed.message)
        expect(ShellCommand.decide(analysis, { allow: [], ask: [], deny: [parsed.rule] })._tag).toBe(expected)
      })
    )
  }

  it.effect("flock's shell string is unanalysable: asked, never allowed by a rule for the command", () =>
    Effect.gen(function* () {
      const analysis = yield* ShellCommand.analyze("flock /tmp/lock -c 'ls'")
      expect(analysis.unanalysable.map((reason) => reason.kind)).toEqual(["ShellString"])
      const parsed = ShellCommand.parseRule("*")
      if (parsed._tag === "Invalid") throw new Error(parsed.message)
      expect(ShellCommand.decide(analysis, { allow: [parsed.rule], ask: [], deny: [] })._tag).toBe("Ask")
    })
  )
})

describe("ShellWrappers.unwrap: why a command cannot be told", () => {
  for (const [line, wrapper, word] of [
    ["timeout --frobnicate 5 rm x", "timeout", "--frobnicate"],
    ["sudo -Z rm x", "sudo", "-Z"],
    ["nice $N rm x", "nice", "$N"]
  ] as const) {
    it(`${JSON.stringify(line)}: the reason names ${wrapper} and ${word}`, () => {
      const unwrapped = unwrap(words(line))
      expect(unwrapped?._tag === "Unanalysable" && unwrapped.message).toContain(wrapper)
      expect(unwrapped?._tag === "Unanalysable" && unwrapped.message).toContain(word)
    })
  }
  it("a shell string's reason names the wrapper", () => {
    for (const line of ["sudo -s rm", "env -S rm", "flock /tmp/lock -c rm", "watch rm"]) {
      const unwrapped = unwrap(words(line))
      expect(unwrapped?._tag === "Unanalysable" && unwrapped.message).toContain(`\`${line.split(" ")[0]}\``)
    }
  })
})

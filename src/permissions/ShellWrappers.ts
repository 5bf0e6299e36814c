/**
 * Commands that run another command (`sudo`, `timeout 5`, `xargs -0`, `env X=1`...), each read with its own
 * options so that the command it runs is found where the wrapper itself would find it: `timeout -s KILL 5 rm x`
 * runs `rm x`, `env -u HOME FOO=1 ls` runs `ls` with FOO set. A wrapper option this table does not know makes the
 * line unanalysable: it might take a value, and the command would then start a word later.
 */
import { literal, unknownWord, type Assignment, type Word } from "./ShellCommand.js"
import { optionValue, parseOptions, type OptionSpec } from "./ShellOptions.js"

export type Unwrapped =
  /** The wrapper runs `argv`. */
  | {
      readonly _tag: "Runs"
      readonly wrapperArgv: ReadonlyArray<Word>
      readonly argv: ReadonlyArray<Word>
      readonly assignments: ReadonlyArray<Assignment>
      readonly transparent: boolean
    }
  /** The wrapper runs no command here (`command -v x`, `sudo -l`, `nice` alone): it is the command. */
  | { readonly _tag: "Itself" }
  /** The command it runs cannot be told (an unknown option, a shell string). */
  | { readonly _tag: "Unanalysable"; readonly kind: "UnknownWrapperOption" | "ShellString"; readonly message: string }

interface WrapperSpec {
  readonly options: OptionSpec
  /** Operands the wrapper itself takes before the command (timeout's duration, chroot's new root). */
  readonly leadingOperands?: number
  /** False when the command runs as someone else or somewhere else: an allow rule for the command does not cover it. */
  readonly transparent: boolean
  /** Decides from the parsed options: "itself" when no command runs, "shell" when the command is a shell string. */
  readonly special?: (options: ReadonlyArray<{ readonly name: string; readonly value: Word | string | undefined }>) => "itself" | "shell" | undefined
  /** Words the wrapper adds after the command's own (xargs' input). */
  readonly appends?: boolean
  /** What runs when no command is given (xargs runs echo). */
  readonly defaultCommand?: string
}

const has = (options: ReadonlyArray<{ readonly name: string }>, ...names: ReadonlyArray<string>) =>
  options.some((option) => names.includes(option.name))

const specs: Record<string, WrapperSpec> = {
  env: {
    options: {
      shortFlags: "i0v",
      shortValues: "uCS",
      longFlags: ["ignore-environment", "null", "debug", "help", "version"],
      longValues: ["unset", "chdir", "split-string"],
      // Optional values, given only with `=`: `env --block-signal rm x` runs `rm x`.
      longOptionalValues: ["block-signal", "default-signal", "ignore-signal", "list-signal-handling"],
      stopAtOperand: true
    },
    transparent: true,
    special: (options) => (has(options, "S", "split-string") ? "shell" : undefined)
  },
  sudo: {
    options: {
      shortFlags: "AbEHnPSiKklsBNv",
      shortValues: "CDghprtTUu",
      longFlags: [
        "askpass", "background", "bell", "preserve-env", "set-home", "login", "remove-timestamp", "reset-timestamp",
        "list", "non-interactive", "preserve-groups", "stdin", "shell", "validate", "help", "version"
      ],
      longValues: ["close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"],
      stopAtOperand: true
    },
    transparent: false,
    // `-k` (--reset-timestamp) with a command runs it, ignoring cached credentials; alone it runs nothing.
    special: (options) =>
      has(options, "s", "shell", "i", "login") ? "shell" : has(options, "l", "list", "v", "validate", "K", "remove-timestamp", "help", "version") ? "itself" : undefined
  },
  doas: {
    options: {
      shortFlags: "Lns",
      shortValues: "Cu",
      stopAtOperand: true,
      // Stryker disable next-line BooleanLiteral: it has no long option, so there is nothing to abbreviate either way
      abbreviations: false
    },
    transparent: false,
    special: (options) => (has(options, "s") ? "shell" : has(options, "L") ? "itself" : undefined)
  },
  nice: { options: { shortValues: "n", longValues: ["adjustment"], longFlags: ["help", "version"], stopAtOperand: true }, transparent: true },
  nohup: { options: { longFlags: ["help", "version"], stopAtOperand: true }, transparent: true },
  timeout: {
    options: { shortFlags: "fpv", shortValues: "ks", longFlags: ["foreground", "preserve-status", "verbose", "help", "version"], longValues: ["kill-after", "signal"], stopAtOperand: true },
    leadingOperands: 1,
    transparent: true
  },
  xargs: {
    options: {
      shortFlags: "0oprtx",
      shortValues: "adEILnPs",
      shortOptionalValues: "eil",
      longFlags: ["null", "open-tty", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "help", "version"],
      longValues: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
      // Optional values, given only with `=`: `xargs --max-lines rm` runs `rm`.
      longOptionalValues: ["eof", "replace", "max-lines"],
      stopAtOperand: true
    },
    transparent: true,
    appends: true,
    defaultCommand: "echo"
  },
  watch: {
    options: {
      shortFlags: "bcCdeghprtwx",
      // -q is --equexit: it takes the number of cycles (`watch -x -q 3 rm x` runs `rm x`).
      shortValues: "nq",
      longFlags: ["beep", "color", "no-color", "differences", "errexit", "chgexit", "no-title", "exec", "precise", "no-wrap", "no-linewrap", "help", "version"],
      longValues: ["interval", "equexit", "shotsdir"],
      longOptionalValues: ["differences"],
      stopAtOperand: true
    },
    transparent: true,
    // Without --exec, watch joins its words and hands them to `sh -c`.
    special: (options) => (has(options, "x", "exec") ? undefined : "shell")
  },
  command: {
    options: {
      shortFlags: "pvV",
      stopAtOperand: true,
      // Stryker disable next-line BooleanLiteral: it has no long option, so there is nothing to abbreviate either way
      abbreviations: false
    },
    transparent: true,
    special: (options) => (has(options, "v", "V") ? "itself" : undefined)
  },
  builtin: {
    options: {
      stopAtOperand: true,
      // Stryker disable next-line BooleanLiteral: it has no long option, so there is nothing to abbreviate either way
      abbreviations: false
    },
    transparent: true
  },
  exec: {
    options: {
      shortFlags: "cl",
      shortValues: "a",
      stopAtOperand: true,
      // Stryker disable next-line BooleanLiteral: it has no long option, so there is nothing to abbreviate either way
      abbreviations: false
    },
    transparent: true
  },
  setsid: { options: { shortFlags: "cfw", longFlags: ["ctty", "fork", "wait", "help", "version"], stopAtOperand: true }, transparent: true },
  stdbuf: { options: { shortValues: "ioe", longValues: ["input", "output", "error"], longFlags: ["help", "version"], stopAtOperand: true }, transparent: true },
  time: { options: { shortFlags: "apqv", shortValues: "fo", longFlags: ["append", "portability", "quiet", "verbose", "help", "version"], longValues: ["format", "output"], stopAtOperand: true }, transparent: true },
  ionice: {
    options: { shortFlags: "tuh", shortValues: "cnPp", longFlags: ["ignore", "help", "version"], longValues: ["class", "classdata", "pgid", "pid", "uid"], stopAtOperand: true },
    transparent: true,
    special: (options) => (has(options, "p", "P", "u", "pid", "pgid", "uid") ? "itself" : undefined)
  },
  chroot: { options: { longFlags: ["skip-chdir", "help", "version"], longValues: ["groups", "userspec"], stopAtOperand: true }, leadingOperands: 1, transparent: false },
  taskset: {
    options: { shortFlags: "acp", longFlags: ["all-tasks", "cpu-list", "pid", "help", "version"], stopAtOperand: true },
    leadingOperands: 1,
    transparent: true,
    special: (options) => (has(options, "p", "pid") ? "itself" : undefined)
  },
  flock: {
    options: {
      shortFlags: "sxunoFhV",
      shortValues: "wEc",
      longFlags: ["shared", "exclusive", "unlock", "nonblock", "close", "no-fork", "verbose", "help", "version"],
      longValues: ["timeout", "conflict-exit-code", "command"],
      stopAtOperand: true
    },
    leadingOperands: 1,
    transparent: true,
    special: (options) => (has(options, "c", "command") ? "shell" : undefined)
  },
  busybox: {
    options: {
      stopAtOperand: true,
      // Stryker disable next-line BooleanLiteral: it has no long option, so there is nothing to abbreviate either way
      abbreviations: false
    },
    transparent: true
  }
}

/** The wrappers seen through. */
export const wrapperNames: ReadonlySet<string> = new Set(Object.keys(specs))

const assignmentRe = /^([A-Za-z_][A-Za-z0-9_]*)=/s

/** Reads the wrapper `argv[0]`; undefined when argv[0] is no wrapper. */
export const unwrap = (argv: ReadonlyArray<Word>): Unwrapped | undefined => {
  const first = argv[0]
  const name = first === undefined ? undefined : literal(first)
  if (name === undefined) return undefined
  const spec = Object.hasOwn(specs, name) ? specs[name] : undefined
  if (spec === undefined) return undefined
  const rest = argv.slice(1)
  const parsed = parseOptions(rest, spec.options)
  if (parsed._tag === "Unknown") {
    return { _tag: "Unanalysable", kind: "UnknownWrapperOption", message: `\`${name}\` is given ${parsed.why} (${parsed.word}): the command it runs cannot be told.` }
  }
  const special = spec.special?.(parsed.options)
  if (special === "shell") {
    return parsed.firstOperand < rest.length || name === "env" || name === "flock"
      ? { _tag: "Unanalysable", kind: "ShellString", message: `\`${name}\` runs its command through a shell string, which is not analysed.` }
      : { _tag: "Itself" }
  }
  if (special === "itself") return { _tag: "Itself" }
  let commandStart = 1 + parsed.firstOperand
  const assignments: Array<Assignment> = []
  if (name === "env") {
    for (const option of parsed.options) {
      if (option.name === "u" || option.name === "unset") {
        const unset = optionValue(option)
        if (unset === undefined) return { _tag: "Unanalysable", kind: "UnknownWrapperOption", message: "`env -u` is given a name built at run time." }
      }
    }
    while (commandStart < argv.length) {
      const word = argv[commandStart]
      const match = word?.value === undefined ? null : assignmentRe.exec(word.value)
      if (word === undefined || match === null || match[1] === undefined) break
      // NAME=VALUE: the value is the rest of the word (static here, since the whole word is).
      assignments.push({ name: match[1], value: { ...word, source: word.source, value: word.value?.slice(match[0].length) } })
      commandStart++
    }
  }
  commandStart += spec.leadingOperands ?? 0
  // `flock file -c command`: after the file, `-c` (or `--command`, exactly) hands the next word to a shell too.
  const afterOperands = argv[commandStart]
  if (name === "flock" && afterOperands !== undefined && ["-c", "--command"].includes(literal(afterOperands) ?? "")) {
    return { _tag: "Unanalysable", kind: "ShellString", message: `\`${name}\` runs its command through a shell string, which is not analysed.` }
  }
  if (commandStart >= argv.length) {
    if (spec.defaultCommand === undefined) return { _tag: "Itself" }
    const command = { source: spec.defaultCommand, value: spec.defaultCommand, glob: false, brace: false, tilde: false }
    return { _tag: "Runs", wrapperArgv: argv, argv: [command, unknownWord(`<${name} input>`)], assignments, transparent: spec.transparent }
  }
  const command = argv.slice(commandStart)
  return {
    _tag: "Runs",
    wrapperArgv: argv.slice(0, commandStart),
    argv: spec.appends === true ? [...command, unknownWord(`<${name} input>`)] : command,
    assignments,
    transparent: spec.transparent
  }
}

/**
 * What a command executes beyond itself: code given as a string (`eval`, `sh -c`, `python -c`, awk's `system()`,
 * sed's `e`), a shell or interpreter reading its program from standard input, a file sourced into the shell, and
 * commands it runs that can be seen (`find -exec rm {} ;`). Code in a string is not analysed: the line becomes
 * unanalysable, so that a deny rule cannot be passed by wrapping a command in `bash -c`.
 */
import { literal, unknownWord, type UnanalysableKind, type Word } from "./ShellCommand.js"

export interface Execution {
  readonly reasons: ReadonlyArray<{ readonly kind: UnanalysableKind; readonly message: string }>
  /** Commands this one runs that can be analysed (find's -exec): the words before the command, and its argv. */
  readonly runs: ReadonlyArray<{ readonly wrapperArgv: ReadonlyArray<Word>; readonly argv: ReadonlyArray<Word> }>
}

const none: Execution = { reasons: [], runs: [] }
const because = (kind: UnanalysableKind, message: string): Execution => ({ reasons: [{ kind, message }], runs: [] })

const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash"])

/** Programs that run commands given in forms this analysis does not read: the line is unanalysable. */
const runners = new Set([
  "su", "runuser", "sg", "pkexec", "script", "expect", "parallel", "unshare", "nsenter", "chrt", "firejail", "bwrap",
  "systemd-run", "strace", "ltrace", "valgrind", "unbuffer", "rlwrap", "entr", "faketime", "proxychains", "proxychains4",
  "torsocks", "catchsegv", "daemonize", "start-stop-daemon", "tmux", "screen", "dtach", "fc", "coproc"
])

interface Interpreter {
  /** Short option letters that take program text (`-c`, `-e`). */
  readonly evalShort: string
  readonly evalLong: ReadonlyArray<string>
  /** Short options that take a value in the next word (so it is not read as the script). */
  readonly valueShort: string
  readonly valueLong: ReadonlyArray<string>
  /** Options after which no script is read (`python -m mod`, `node --version`). */
  readonly noScript: ReadonlyArray<string>
}

const python: Interpreter = { evalShort: "c", evalLong: [], valueShort: "WXQm", valueLong: ["check-hash-based-pycs"], noScript: ["-m", "-V", "--version", "-h", "--help"] }
const node: Interpreter = {
  evalShort: "ep",
  evalLong: ["--eval", "--print"],
  valueShort: "rC",
  valueLong: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--input-type", "--env-file", "--title", "--stack-size"],
  noScript: ["-v", "--version", "-h", "--help", "--test"]
}
const perl: Interpreter = { evalShort: "eE", evalLong: [], valueShort: "", valueLong: [], noScript: ["-v", "-V", "--version", "-h", "--help"] }
const ruby: Interpreter = { evalShort: "e", evalLong: [], valueShort: "Ir", valueLong: [], noScript: ["-v", "--version", "-h", "--help"] }
const simple = (evalShort: string): Interpreter => ({ evalShort, evalLong: [], valueShort: "", valueLong: [], noScript: ["-v", "--version", "-h", "--help"] })

const interpreters: Record<string, Interpreter> = {
  node,
  nodejs: node,
  bun: { ...node, evalLong: ["--eval", "--print"] },
  perl,
  ruby,
  php: { evalShort: "rBRE", evalLong: [], valueShort: "cdf", valueLong: [], noScript: ["-v", "--version", "-h", "--help", "-f", "-l", "-m", "-i"] },
  lua: { ...simple("e"), valueShort: "l" },
  luajit: { ...simple("e"), valueShort: "l" },
  Rscript: { ...simple("e"), evalLong: ["--expr"] },
  R: { ...simple("e"), noScript: ["--version", "-h", "--help"] },
  julia: { ...simple("eE"), evalLong: ["--eval", "--print"] },
  osascript: simple("e"),
  pwsh: { evalShort: "c", evalLong: ["-Command", "-command", "-EncodedCommand", "-encodedcommand", "-c"], valueShort: "", valueLong: [], noScript: ["-v", "-Version", "--version"] },
  powershell: { evalShort: "c", evalLong: ["-Command", "-command", "-EncodedCommand", "-encodedcommand", "-c"], valueShort: "", valueLong: [], noScript: ["-v", "-Version", "--version"] },
  tclsh: simple(""),
  wish: simple(""),
  irb: simple("")
}

const interpreterOf = (name: string): Interpreter | undefined =>
  /^(python|pypy)[0-9.]*$/.test(name) ? python : Object.hasOwn(interpreters, name) ? interpreters[name] : undefined

/** A shell's invocation: a `-c` string, a script file, or a program read from standard input. */
const shellInvocation = (name: string, args: ReadonlyArray<Word>): Execution => {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    if (word === undefined) break
    const text = literal(word)
    if (text === undefined) return because("ShellString", `\`${name}\` is given a word built at run time where an option or its script may stand.`)
    if (text === "--" || text === "-") {
      return index + 1 < args.length ? none : because("ShellFromInput", `\`${name}\` reads its commands from standard input, which is not analysed.`)
    }
    if (text.startsWith("--")) {
      if (text === "--command" || text === "--init-command" || text.startsWith("--command=") || text.startsWith("--init-command=")) {
        return because("ShellString", `\`${name} ${text}\` runs a string of shell code, which is not analysed.`)
      }
      if (text === "--rcfile" || text === "--init-file") index++
      continue
    }
    if (text.startsWith("-") || text.startsWith("+")) {
      const letters = text.slice(1)
      if (letters.includes("c") || (name === "fish" && letters.includes("C"))) {
        return because("ShellString", `\`${name} ${text}\` runs a string of shell code, which is not analysed.`)
      }
      if (letters.includes("s") || letters.includes("i")) {
        return because("ShellFromInput", `\`${name} ${text}\` reads its commands from standard input, which is not analysed.`)
      }
      if (/[oO]/.test(letters)) index++
      continue
    }
    return none // a script file: it runs as any program does.
  }
  return because("ShellFromInput", `\`${name}\` with no script reads its commands from standard input, which is not analysed.`)
}

const interpreterInvocation = (name: string, interpreter: Interpreter, args: ReadonlyArray<Word>): Execution => {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    if (word === undefined) break
    const text = literal(word)
    if (text === undefined) return because("InterpreterString", `\`${name}\` is given a word built at run time where an option or its program may stand.`)
    if (interpreter.noScript.includes(text) || interpreter.noScript.some((option) => option.startsWith("-") && option.length === 2 && text.startsWith(option) && option === "-m")) {
      return none
    }
    if (text === "--") return index + 1 < args.length ? none : because("ShellFromInput", `\`${name}\` reads its program from standard input, which is not analysed.`)
    if (text === "-") return because("ShellFromInput", `\`${name} -\` reads its program from standard input, which is not analysed.`)
    const long = text.split("=", 1)[0] ?? text
    if (interpreter.evalLong.includes(long)) return because("InterpreterString", `\`${name} ${long}\` runs program text given as an argument, which is not analysed.`)
    if (text.startsWith("--")) {
      if (interpreter.valueLong.includes(text)) index++
      continue
    }
    if (text.startsWith("-")) {
      const letters = text.slice(1)
      for (let position = 0; position < letters.length; position++) {
        const letter = letters.charAt(position)
        if (interpreter.evalShort.includes(letter)) {
          return because("InterpreterString", `\`${name} ${text}\` runs program text given as an argument, which is not analysed.`)
        }
        if (interpreter.valueShort.includes(letter)) {
          if (position === letters.length - 1) index++
          break
        }
      }
      continue
    }
    return none // a program file
  }
  return because("ShellFromInput", `\`${name}\` with no program file reads its program from standard input, which is not analysed.`)
}

/** awk: the program is the first operand (or -e/--source text, or -f files). */
const awkInvocation = (name: string, args: ReadonlyArray<Word>): Execution => {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    if (word === undefined) break
    const text = literal(word)
    if (text === undefined) return because("InterpreterString", `\`${name}\` is given a word built at run time where its program may stand.`)
    if (text === "--") {
      const program = args[index + 1]
      return program === undefined ? none : awkProgram(name, program)
    }
    if (/^-[Fv]$/.test(text) || text === "--field-separator" || text === "--assign") {
      index++
      continue
    }
    if (/^-[fEe]$/.test(text) || text === "--file" || text === "--exec" || text === "--source" || text === "--include" || text === "-i" || text === "--load" || text === "-l") {
      const value = args[index + 1]
      if ((text === "-e" || text === "--source") && value !== undefined) return awkProgram(name, value)
      return because("InterpreterString", `\`${name} ${text}\` runs program text this analysis does not read.`)
    }
    if (text.startsWith("-")) continue
    return awkProgram(name, word)
  }
  return none
}

const awkProgram = (name: string, word: Word): Execution => {
  const program = literal(word)
  if (program === undefined) return because("InterpreterString", `\`${name}\`'s program is built at run time.`)
  // system(), and pipes to or from commands (`print | "sh"`, `"cmd" | getline`), run commands.
  return /\bsystem\s*\(|\|/.test(program) ? because("InterpreterString", `\`${name}\`'s program runs commands (system() or a pipe), which are not analysed.`) : none
}

export type SedVerdict = "prints" | "writes" | "executes" | "unknown"

/**
 * Reads a sed script (GNU syntax) for what it does besides printing: `w`/`W` and `s///w` write files, `e` and
 * `s///e` execute commands, `r`/`R` read files. Anything not understood is "unknown".
 */
export const sedScript = (script: string): SedVerdict => {
  let verdict: SedVerdict = "prints"
  const worse = (next: SedVerdict) => {
    const rank = { prints: 0, writes: 1, unknown: 2, executes: 3 }
    if (rank[next] > rank[verdict]) verdict = next
  }
  let index = 0
  const at = () => script.charAt(index)
  const skipSpace = () => {
    while (index < script.length && /[\s;]/.test(at())) index++
  }
  const delimited = (delimiter: string): boolean => {
    // Reads up to an unescaped delimiter (a bracket expression may hold it unescaped: treated as unknown text).
    while (index < script.length) {
      const char = at()
      if (char === "\\") {
        index += 2
        continue
      }
      if (char === "\n" && delimiter !== "\n") return false
      index++
      if (char === delimiter) return true
    }
    return false
  }
  const address = (): boolean => {
    const char = at()
    if (/[0-9]/.test(char)) {
      while (/[0-9~]/.test(at())) index++
      return true
    }
    if (char === "$") {
      index++
      return true
    }
    if (char === "/" || char === "\\") {
      const delimiter = char === "\\" ? script.charAt(index + 1) : "/"
      index += char === "\\" ? 2 : 1
      if (!delimited(delimiter)) return false
      while (/[IM]/.test(at())) index++
      return true
    }
    return true
  }
  while (index < script.length) {
    skipSpace()
    if (index >= script.length) break
    if (at() === "#") {
      while (index < script.length && at() !== "\n") index++
      continue
    }
    if (!address()) return "unknown"
    if (at() === ",") {
      index++
      if (at() === "+" || at() === "~") index++
      if (!address()) return "unknown"
    }
    while (at() === " ") index++
    if (at() === "!") index++
    while (at() === " ") index++
    const command = at()
    index++
    switch (command) {
      case "{":
      case "}":
      case "=":
      case "d":
      case "D":
      case "g":
      case "G":
      case "h":
      case "H":
      case "l":
      case "n":
      case "N":
      case "p":
      case "P":
      case "x":
      case "z":
      case "F":
        break
      case "q":
      case "Q":
      case "L":
        while (/[0-9 ]/.test(at())) index++
        break
      case ":":
      case "b":
      case "t":
      case "T":
        while (index < script.length && !/[;\n]/.test(at())) index++
        break
      case "a":
      case "i":
      case "c":
        // Text to the end of the line (GNU one-liner form) or over escaped newlines.
        while (index < script.length && at() !== "\n") index += at() === "\\" ? 2 : 1
        break
      case "y": {
        const delimiter = at()
        index++
        if (!delimited(delimiter) || !delimited(delimiter)) return "unknown"
        break
      }
      case "s": {
        const delimiter = at()
        if (delimiter === "" || delimiter === "\n" || delimiter === "\\") return "unknown"
        index++
        if (!delimited(delimiter) || !delimited(delimiter)) return "unknown"
        while (index < script.length && !/[;\n}]/.test(at())) {
          const flag = at()
          if (flag === "e") worse("executes")
          else if (flag === "w") {
            worse("writes")
            index = script.length
          } else if (!/[gpiImM0-9 ]/.test(flag)) return "unknown"
          index++
        }
        break
      }
      case "e":
        worse("executes")
        while (index < script.length && at() !== "\n") index++
        break
      case "w":
      case "W":
        worse("writes")
        while (index < script.length && at() !== "\n") index++
        break
      case "r":
      case "R":
        worse("unknown")
        while (index < script.length && at() !== "\n") index++
        break
      default:
        return "unknown"
    }
  }
  return verdict
}

/** The scripts a sed command runs: `-e` values, `--expression=`, else its first operand; undefined if not static or from a file. */
export const sedScripts = (args: ReadonlyArray<Word>): ReadonlyArray<string> | undefined => {
  const scripts: Array<string> = []
  let firstOperand: string | undefined
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    if (word === undefined) break
    const text = literal(word)
    if (text === undefined) {
      if (firstOperand === undefined && scripts.length === 0) return undefined
      continue
    }
    if (text === "-e" || text === "--expression") {
      const value = args[index + 1]
      const script = value === undefined ? undefined : literal(value)
      if (script === undefined) return undefined
      scripts.push(script)
      index++
      continue
    }
    if (text.startsWith("--expression=")) {
      scripts.push(text.slice("--expression=".length))
      continue
    }
    if (/^-[a-zA-Z]*e./.test(text) && !text.startsWith("--")) {
      const script = text.slice(text.indexOf("e") + 1)
      scripts.push(script)
      continue
    }
    if (text === "-f" || text.startsWith("--file") || /^-[a-zA-Z]*f/.test(text)) return undefined
    if (text === "-l" || text === "--line-length") {
      index++
      continue
    }
    if (text.startsWith("-") && text !== "-") continue
    if (firstOperand === undefined) firstOperand = text
  }
  if (scripts.length === 0 && firstOperand !== undefined) scripts.push(firstOperand)
  return scripts
}

const findExecutors = new Set(["-exec", "-execdir", "-ok", "-okdir"])

export const executionOf = (path: string, args: ReadonlyArray<Word>): Execution => {
  // `/bin/bash -c` is bash: programs are recognised by the last component of the path they are run by.
  const name = path.includes("/") ? path.slice(path.lastIndexOf("/") + 1) : path
  switch (name) {
    case "eval":
      return because("Eval", "`eval` runs a string as shell code, which is not analysed.")
    case "source":
    case ".":
      return because("Source", `\`${name}\` runs a file's commands in this shell, which are not analysed.`)
    case "trap": {
      const first = args[0]
      const text = first === undefined ? undefined : literal(first)
      if (first === undefined || text === "-p" || text === "-l" || text === "-" || text === "" || (text !== undefined && /^\d+$/.test(text))) return none
      return because("ShellString", "`trap` sets shell code to run later, which is not analysed.")
    }
    case "mapfile":
    case "readarray":
      return args.some((word) => literal(word)?.startsWith("-C") === true || /^-[a-zA-Z]*C/.test(literal(word) ?? ""))
        ? because("ShellString", `\`${name} -C\` runs a callback, which is not analysed.`)
        : none
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return awkInvocation(name, args)
    case "sed":
    case "gsed": {
      const scripts = sedScripts(args)
      if (scripts === undefined) return none // not read-only; nothing hidden is executed unless a script says `e`
      return scripts.some((script) => sedScript(script) === "executes")
        ? because("InterpreterString", `\`${name}\`'s script runs commands (its \`e\` command or the \`e\` flag of \`s\`), which are not analysed.`)
        : none
    }
    case "sqlite3":
      return args.some((word) => /^\s*\.(shell|system|sh)\b/m.test(word.value ?? ".shell"))
        ? because("InterpreterString", "`sqlite3` is given a dot-command that runs shell commands.")
        : none
    case "find": {
      const runs: Array<{ wrapperArgv: ReadonlyArray<Word>; argv: ReadonlyArray<Word> }> = []
      for (let index = 0; index < args.length; index++) {
        const text = literal(args[index] ?? unknownWord(""))
        if (text === undefined || !findExecutors.has(text)) continue
        const start = index + 1
        let end = start
        while (end < args.length) {
          const word = args[end]
          const value = word === undefined ? undefined : literal(word)
          if (value === ";" || (value === "+" && literal(args[end - 1] ?? unknownWord("")) === "{}")) break
          end++
        }
        const argv = args.slice(start, end).map((word) => (literal(word) === "{}" ? unknownWord("{}") : word))
        if (argv.length > 0) runs.push({ wrapperArgv: args.slice(0, start), argv })
        index = end
      }
      return { reasons: [], runs }
    }
  }
  if (shells.has(name)) return shellInvocation(name, args)
  const interpreter = interpreterOf(name)
  if (interpreter !== undefined) return interpreterInvocation(name, interpreter, args)
  if (runners.has(name)) return because("Unsupported", `\`${name}\` runs other commands in a way this analysis does not follow.`)
  return none
}

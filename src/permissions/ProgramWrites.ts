/**
 * Files the common writing programs write through their operands: `cp x .git/hooks/pre-commit`, `mv x ~/.bashrc`,
 * `tee -a f`, `rm -r .claude`, `tar -xf a.tar -C dir`... Each is read by its own argument grammar (options that take
 * a value, `--`, `-t DIR` / `--target-directory`, `-T`, the last operand as destination) and every file it names is
 * returned, to be checked as an edit of that file exactly as a redirection's target is (BashFiles.ts): deny rules,
 * ask rules, the workspace boundary and protected paths apply, allow rule or not.
 *
 * A `tree` write changes what lies under the path too (a recursive delete, a rename, an extraction into a directory,
 * a recursive copy's destination): Permissions also asks whether a protected path or a denied one lies under it.
 *
 * Honest by construction: a program not in the table is left to rules as before; the arguments are read by
 * ShellOptions' reader made lenient: options this table does not know are read as flags, so that their values, if
 * any, are checked as written files too (more is checked, never less); a word built at run time where a file may
 * stand is an unknown target (asked about), and one where an option may stand marks the reading `dynamic`.
 */
import { baseName, literal, type SimpleCommand, type Word, wordOf } from "./ShellCommand.js"
import { type OptionSpec, type Parsed, parseOptionsLeniently, type ParsedOption } from "./ShellOptions.js"
import { gitGlobalValues, inGitDirectory } from "./ShellWrites.js"

/** A file (or directory tree) a command writes: `path` as written, undefined when it is known only at run time. */
export interface Target {
  readonly path: string | undefined
  /** The write reaches what lies under `path` (recursive delete, rename, extraction, recursive copy). */
  readonly tree: boolean
  /** `path` holds an unquoted glob pattern (`rm *.o`): the names it matches are written. */
  readonly glob: boolean
}

const unknownTarget: Target = { path: undefined, tree: false, glob: false }

/** A word as a target path: its value (a glob's pattern, a `~/` path as written) or unknown. */
const targetOf = (word: Word, tree: boolean): Target => {
  if (word.value === undefined || word.brace) return unknownTarget
  // `~/x` and `~` are expanded by Permissions to the home; `~user/x` is another user's home, not known here.
  if (word.tilde && !(word.value === "~" || word.value.startsWith("~/"))) return unknownTarget
  return { path: word.value, tree, glob: word.glob }
}

const pathTarget = (path: string, tree: boolean): Target => ({ path, tree, glob: false })

const has = (parsed: Parsed, ...names: ReadonlyArray<string>): boolean => parsed.options.some((option) => names.includes(option.name))

/** An option's value as a word: one attached to the option (`-ofile`, `--output=file`) is exactly that text. */
const valueWord = (option: ParsedOption): Word | undefined => (typeof option.value === "string" ? wordOf(option.value) : option.value)

const valuesOf = (parsed: Parsed, ...names: ReadonlyArray<string>): ReadonlyArray<Word | undefined> =>
  parsed.options.filter((option) => names.includes(option.name)).map(valueWord)

/** Each value of these options as a target (an option missing its value writes nothing). */
const optionTargets = (parsed: Parsed, tree: boolean, ...names: ReadonlyArray<string>): ReadonlyArray<Target> =>
  valuesOf(parsed, ...names).flatMap((value) => (value === undefined ? [] : [targetOf(value, tree)]))

const lastComponent = (path: string): string => {
  const trimmed = path.replace(/\/+$/, "")
  return trimmed.slice(trimmed.lastIndexOf("/") + 1)
}

/**
 * What lands in directory `directory` (a word) for the source `source`: `directory/basename(source)`, or with
 * `wholePath` (`cp --parents a/b/c dir`) `directory/source` as written (`dir/a/b/c`). A source whose name is not known
 * (built at run time, a glob) or is `.` / `..` (`cp -r src/. dest`) puts unknown names there: the directory itself is
 * then written as a tree.
 */
const into = (directory: Word, source: Word | undefined, tree: boolean, wholePath = false): Target => {
  const dir = targetOf(directory, true)
  if (dir.path === undefined) return unknownTarget
  const name = source === undefined ? undefined : literal(source)
  const base = name === undefined ? undefined : lastComponent(name)
  if (base === undefined || base === "" || base === "." || base === "..") return { ...dir, tree: true }
  const written = wholePath && name !== undefined ? name.replace(/^\/+/, "") : base
  return { path: `${dir.path.replace(/\/+$/, "")}/${written}`, tree, glob: dir.glob }
}

/**
 * cp, mv, install, ln: `-t DIR` puts every source in DIR; `-T` makes the last operand the file itself; otherwise the
 * last operand is a directory (more than one source) or a file or a directory (one source): both are checked.
 */
const destinationTargets = (parsed: Parsed, tree: boolean, singleOperandIntoCwd: boolean): ReadonlyArray<Target> => {
  if (parsed.dynamic) return [unknownTarget]
  // cp --parents puts each source under the directory by its whole path (`cp --parents .ssh/k ~` writes ~/.ssh/k).
  const wholePath = has(parsed, "parents")
  const targetDirectories = valuesOf(parsed, "t", "target-directory")
  if (targetDirectories.length > 0) {
    const directory = targetDirectories[targetDirectories.length - 1]
    if (directory === undefined) return []
    return parsed.operands.length === 0 ? [] : parsed.operands.map((source) => into(directory, source, tree, wholePath))
  }
  const destination = parsed.operands[parsed.operands.length - 1]
  if (destination === undefined) return []
  if (parsed.operands.length === 1) {
    // `ln -s /x/y` makes ./y.
    return singleOperandIntoCwd ? [into(wordOf("."), destination, tree)] : []
  }
  const sources = parsed.operands.slice(0, -1)
  if (has(parsed, "T", "no-target-directory")) return [targetOf(destination, tree)]
  const asDirectory = sources.map((source) => into(destination, source, tree, wholePath))
  return sources.length === 1 ? [targetOf(destination, tree), ...asDirectory] : asDirectory
}

const recursive = (parsed: Parsed): boolean => has(parsed, "r", "R", "a", "recursive", "archive")

const gnuBackup = ["backup", "context", "update", "reflink", "preserve", "sparse"]

const cpSpec: OptionSpec = { shortValues: "St", longValues: ["suffix", "target-directory", "no-preserve"], longOptionalValues: gnuBackup, longFlags: ["recursive", "archive", "no-target-directory", "parents"] }
const mvSpec: OptionSpec = { shortValues: "St", longValues: ["suffix", "target-directory"], longOptionalValues: ["backup", "context", "update"], longFlags: ["no-target-directory"] }
const lnSpec: OptionSpec = { shortValues: "St", longValues: ["suffix", "target-directory"], longOptionalValues: ["backup"], longFlags: ["no-target-directory", "symbolic"] }
const installSpec: OptionSpec = {
  // -C is --compare, a flag (GNU and BSD): read as one taking a value, it hid the destination (`install -C x dest`).
  shortValues: "gmoSt",
  longValues: ["group", "mode", "owner", "suffix", "target-directory", "strip-program"],
  longOptionalValues: ["backup", "context"],
  longFlags: ["directory", "no-target-directory"]
}

/** Each operand is a written file (`touch a b`, `rm a b`, `mkdir -p a/b`). */
const everyOperand = (spec: OptionSpec, tree: (parsed: Parsed) => boolean = () => false) => (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, spec)
  return parsed.operands.map((word) => targetOf(word, tree(parsed)))
}

/**
 * chmod MODE file..., chown OWNER file...: the first operand is not a file unless --reference gives it, or the mode
 * was written as an option (`chmod -w f`: chmod's only short flags are -c -f -v -R, so a letter of a mode is one).
 */
const afterFirstOperand = (spec: OptionSpec, modeLetters = "") => (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, spec)
  const modeAsOption = parsed.options.some((option) => option.name.length === 1 && modeLetters.includes(option.name))
  const files = has(parsed, "reference") || modeAsOption ? parsed.operands : parsed.operands.slice(1)
  return files.map((word) => targetOf(word, recursive(parsed)))
}

const sedWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, { shortValues: "efl", shortOptionalValues: "i", longValues: ["expression", "file", "line-length"], longOptionalValues: ["in-place"], longFlags: ["quiet", "silent", "separate", "posix", "sandbox", "debug", "follow-symlinks", "null-data", "regexp-extended", "unbuffered"] })
  if (!has(parsed, "i", "in-place")) return []
  const scriptGiven = has(parsed, "e", "f", "expression", "file")
  return (scriptGiven ? parsed.operands : parsed.operands.slice(1)).map((word) => targetOf(word, false))
}

/** patch [options] [originalfile [patchfile]]: without a file named, the files the patch names (under -d dir). */
const patchWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, {
    shortValues: "BDdFgiopVYzr",
    longValues: ["prefix", "ifdef", "directory", "fuzz", "get", "input", "output", "strip", "version-control", "basename-prefix", "suffix", "reject-file", "quoting-style", "merge", "backup-if-mismatch"],
    longFlags: ["dry-run", "reverse", "forward", "batch", "force", "silent", "quiet", "verbose", "backup", "unified", "context", "normal", "ed", "posix"]
  })
  if (has(parsed, "dry-run")) return []
  const directory = valuesOf(parsed, "d", "directory").at(-1)
  const inDirectory = (target: Target): Target =>
    directory === undefined || target.path === undefined || target.path.startsWith("/") ? target : into(directory, wordOf(target.path), target.tree, true)
  const out: Array<Target> = [...optionTargets(parsed, false, "o", "output", "r", "reject-file").map(inDirectory)]
  const original = parsed.operands[0]
  if (original !== undefined) out.push(inDirectory(targetOf(original, false)))
  else if (!has(parsed, "o", "output")) out.push(directory === undefined ? pathTarget(".", true) : targetOf(directory, true))
  return out
}

const tarCreating = ["c", "r", "u", "A", "create", "append", "update", "catenate", "concatenate", "delete"]

const tarSpec: OptionSpec = {
  shortValues: "fCbTXgKNLVHI",
  longValues: ["file", "directory", "blocking-factor", "files-from", "exclude-from", "listed-incremental", "starting-file", "newer", "label", "tape-length", "format", "use-compress-program", "exclude", "transform", "owner", "group", "mode", "mtime"],
  longFlags: ["extract", "get", "create", "append", "update", "list", "diff", "compare", "delete", "catenate", "concatenate", "to-stdout"]
}

/**
 * tar's old form, `tar xzf a.tar -C dir`: a first word without a dash is letters, each an option, and those that take
 * a value take the next words in order (`tar xfC a.tar dir`). Read here rather than by ShellOptions, as only tar has
 * it; what follows those words is read as usual.
 */
const parseTar = (args: ReadonlyArray<Word>): Parsed => {
  const first = args[0] === undefined ? undefined : literal(args[0])
  if (first === undefined || first.startsWith("-")) return parseOptionsLeniently(args, tarSpec)
  const letters: Array<ParsedOption> = []
  let next = 1
  for (const letter of first) {
    if (tarSpec.shortValues?.includes(letter) === true) {
      // Stryker disable next-line BooleanLiteral: nothing here reads `abbreviated` (it is for ShellOptions' strict callers).
      letters.push({ name: letter, value: args[next], abbreviated: false })
      next++
    } else {
      // Stryker disable next-line BooleanLiteral: nothing here reads `abbreviated` (it is for ShellOptions' strict callers).
      letters.push({ name: letter, value: undefined, abbreviated: false })
    }
  }
  const rest = parseOptionsLeniently(args.slice(next), tarSpec)
  // Stryker disable next-line ArithmeticOperator: tar's reading never reads `firstOperand` (kept right for the type's sake).
  return { ...rest, options: [...letters, ...rest.options], firstOperand: rest.firstOperand + next }
}

/** Extracting writes the archive's names under `-C dir` (or here); creating writes the archive (`-f`). */
const tarWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseTar(args)
  const archives = optionTargets(parsed, false, "f", "file").filter((target) => target.path !== "-")
  if (has(parsed, "x", "extract", "get")) {
    if (has(parsed, "O", "to-stdout")) return []
    const directories = optionTargets(parsed, true, "C", "directory")
    return directories.length > 0 ? directories : [pathTarget(".", true)]
  }
  return has(parsed, ...tarCreating) ? archives : []
}

const unzipWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, { shortValues: "dxP" })
  // -l, -t, -v, -z, -Z list or test; -p and -c write to standard output.
  if (has(parsed, "l", "t", "v", "z", "Z", "p", "c")) return []
  const directories = optionTargets(parsed, true, "d")
  return directories.length > 0 ? directories : [pathTarget(".", true)]
}

/** The name curl -O / wget give a download: the URL path's last component, when static. */
const remoteName = (url: Word | undefined, directory: Word | undefined): Target => {
  const text = url === undefined ? undefined : literal(url)
  if (text === undefined) return unknownTarget
  let name: string
  try {
    const parsedUrl = new URL(text.includes("://") ? text : `http://${text}`)
    name = decodeURIComponent(lastComponent(parsedUrl.pathname))
  } catch {
    return unknownTarget
  }
  const file = name === "" ? "index.html" : name
  if (file.includes("/")) return unknownTarget
  return directory === undefined ? pathTarget(file, false) : into(directory, wordOf(file), false)
}

const curlWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, {
    shortValues: "AbcCdDeEFHKmoPQrtTuUwxXYyz",
    longValues: [
      "output", "output-dir", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "config",
      "data", "data-binary", "data-raw", "data-urlencode", "header", "user-agent", "referer", "request", "url", "user", "proxy",
      "cookie", "form", "max-time", "connect-timeout", "retry", "write-out", "upload-file", "range", "cert", "key", "cacert"
    ],
    longFlags: ["remote-name", "remote-name-all", "remote-header-name", "silent", "show-error", "location", "fail", "include", "insecure", "verbose", "create-dirs"]
  })
  // A config file (-K) may hold `output = ...`; -J names the file as the server says.
  if (has(parsed, "K", "config", "J", "remote-header-name")) return [unknownTarget]
  const directory = valuesOf(parsed, "output-dir").at(-1)
  const inDirectory = (target: Target): Target =>
    directory === undefined || target.path === undefined || target.path.startsWith("/") ? target : into(directory, wordOf(target.path), false, true)
  const out: Array<Target> = [
    ...optionTargets(parsed, false, "o", "output").filter((target) => target.path !== "-").map(inDirectory),
    ...optionTargets(parsed, false, "D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save").filter((target) => target.path !== "-")
  ]
  const remoteNames = valuesOf(parsed, "O", "remote-name").length
  const urls = [...parsed.operands, ...valuesOf(parsed, "url").flatMap((url) => (url === undefined ? [] : [url]))]
  const named = has(parsed, "remote-name-all") ? urls.length : remoteNames
  for (const url of urls.slice(0, named)) out.push(remoteName(url, directory))
  return out
}

const wgetWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, {
    shortValues: "OoaPiBtTwQelUDRAXIeYhH",
    longValues: ["output-document", "output-file", "append-output", "directory-prefix", "input-file", "base", "tries", "timeout", "wait", "quota", "execute", "level", "user-agent", "domains", "reject", "accept", "exclude-directories", "include-directories", "header", "user", "password"],
    longFlags: ["recursive", "mirror", "content-disposition", "force-directories", "no-directories", "quiet", "verbose", "continue", "page-requisites", "no-parent", "timestamping"]
  })
  // `-e command` is a wgetrc command (`output_document = ...`).
  if (has(parsed, "e", "execute")) return [unknownTarget]
  const directory = valuesOf(parsed, "P", "directory-prefix").at(-1)
  const out: Array<Target> = [...optionTargets(parsed, false, "o", "output-file", "a", "append-output").filter((target) => target.path !== "-")]
  const document = optionTargets(parsed, false, "O", "output-document")
  if (document.length > 0) return [...out, ...document.filter((target) => target.path !== "-")]
  // Recursion, an input list, names from the server: files under the prefix, names not known here.
  if (has(parsed, "r", "recursive", "m", "mirror", "i", "input-file", "x", "force-directories", "p", "page-requisites", "content-disposition")) {
    return [...out, directory === undefined ? pathTarget(".", true) : targetOf(directory, true)]
  }
  return [...out, ...parsed.operands.map((url) => remoteName(url, directory))]
}

/** split [input [prefix]] writes prefixaa, prefixab...; the prefix's directory is what the check needs. */
const splitWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, {
    shortValues: "abClnt",
    longValues: ["suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator", "filter"],
    longOptionalValues: ["numeric-suffixes", "hex-suffixes"]
  })
  const prefix = parsed.operands[1]
  return [prefix === undefined ? pathTarget("x", false) : targetOf(prefix, false)]
}

const csplitWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, { shortValues: "bfn", longValues: ["suffix-format", "prefix", "digits"] })
  const prefixes = optionTargets(parsed, false, "f", "prefix")
  return prefixes.length > 0 ? prefixes : [pathTarget("xx", false)]
}

/** `host:path` and `rsync://...` are remote; a path with a `/` before its first `:` is local. */
const isRemote = (word: Word): boolean => {
  const text = word.value
  if (text === undefined) return false
  if (text.startsWith("rsync://")) return true
  const colon = text.indexOf(":")
  const slash = text.indexOf("/")
  return colon > 0 && (slash === -1 || colon < slash)
}

/** rsync and scp write their last operand (when local); recursively, what lands under it. */
const copyToDestination = (spec: OptionSpec, recursiveNames: ReadonlyArray<string>) => (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, spec)
  if (parsed.dynamic) return [unknownTarget]
  const destination = parsed.operands[parsed.operands.length - 1]
  if (destination === undefined || parsed.operands.length < 2 || isRemote(destination)) return []
  const sources = parsed.operands.slice(0, -1)
  const tree = has(parsed, ...recursiveNames)
  // rsync copies the contents of `src/` into the destination itself; --delete removes there what the source lacks.
  const contents = sources.some((source) => source.value === undefined || source.value.endsWith("/")) || parsed.options.some((option) => option.name.startsWith("delete"))
  if (tree && contents) return [targetOf(destination, true)]
  const asDirectory = sources.map((source) => into(destination, isRemote(source) ? wordOf(lastComponent((source.value ?? "").slice((source.value ?? "").indexOf(":") + 1))) : source, tree))
  return sources.length === 1 ? [targetOf(destination, tree), ...asDirectory] : asDirectory
}

const rsyncWrites = copyToDestination(
  { shortValues: "eBfTM", longValues: ["rsh", "block-size", "filter", "temp-dir", "backup-dir", "suffix", "exclude", "include", "exclude-from", "include-from", "files-from", "log-file", "partial-dir", "rsync-path", "chmod", "chown", "compare-dest", "copy-dest", "link-dest", "max-size", "min-size", "timeout", "bwlimit"], longFlags: ["recursive", "archive", "delete", "verbose", "dry-run"] },
  ["r", "a", "recursive", "archive"]
)

const scpWrites = copyToDestination({ shortValues: "cFiJlmoPSDX" }, ["r"])

const ddWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> =>
  args.flatMap((word) => {
    const text = literal(word)
    // `of=$OUT` is an unknown target; `if=$IN`, `bs=$N` write nothing.
    if (text === undefined) return /^(if|bs|ibs|obs|cbs|skip|seek|count|conv|iflag|oflag|status)=/.test(word.source) ? [] : [unknownTarget]
    return text.startsWith("of=") ? [pathTarget(text.slice(3), false)] : []
  })

/**
 * `git config` setting a value writes the config file it names: --file (taken from the last `git -C dir`, as
 * `inDirectory` places it), --global (~/.gitconfig), or the repository's.
 */
const gitConfigWrites = (args: ReadonlyArray<Word>, inDirectory: (file: Word) => Word): ReadonlyArray<Target> => {
  const parsed = parseOptionsLeniently(args, { shortValues: "f", longValues: ["file", "blob", "type", "default", "comment", "value"], longFlags: ["global", "system", "local", "worktree"] })
  const first = parsed.operands[0] === undefined ? undefined : literal(parsed.operands[0])
  const reads = ["l", "list", "get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "blob"]
  if (has(parsed, ...reads) || first === "get" || first === "list") return []
  // One operand (`git config user.name`) reads, except with an action that writes it (--unset, --remove-section...).
  const actions = ["unset", "unset-all", "remove-section", "rename-section", "replace-all", "add", "edit", "e"]
  if (parsed.operands.length < 2 && !has(parsed, ...actions) && first !== "set" && first !== "unset") return []
  const files = valuesOf(parsed, "f", "file").flatMap((file) => (file === undefined ? [] : [targetOf(inDirectory(file), false)]))
  if (files.length > 0) return files
  if (has(parsed, "global")) return [pathTarget("~/.gitconfig", false)]
  if (has(parsed, "system")) return [pathTarget("/etc/gitconfig", false)]
  return [pathTarget(".git/config", false)]
}

const programs: Record<string, (args: ReadonlyArray<Word>) => ReadonlyArray<Target>> = {
  cp: (args) => {
    const parsed = parseOptionsLeniently(args, cpSpec)
    return destinationTargets(parsed, recursive(parsed), false)
  },
  // A move removes its sources (with what lies under them) and writes the destination.
  mv: (args) => {
    const parsed = parseOptionsLeniently(args, mvSpec)
    const sources = has(parsed, "t", "target-directory") ? parsed.operands : parsed.operands.slice(0, -1)
    return [...sources.map((word) => targetOf(word, true)), ...destinationTargets(parsed, true, false)]
  },
  install: (args) => {
    const parsed = parseOptionsLeniently(args, installSpec)
    if (has(parsed, "d", "directory")) return parsed.operands.map((word) => targetOf(word, false))
    return destinationTargets(parsed, false, false)
  },
  // The link created (`ln -s target name`, `ln -s target dir/`, `ln -s /x/y` makes ./y).
  ln: (args) => destinationTargets(parseOptionsLeniently(args, lnSpec), false, true),
  // Stryker disable next-line ObjectLiteral,ArrayDeclaration,StringLiteral: every operand is written whatever the options; `--output-error` (its value only after `=`) reads as the lenient reader reads an option it does not know.
  tee: everyOperand({ longOptionalValues: ["output-error"] }),
  dd: ddWrites,
  touch: everyOperand({ shortValues: "drt", longValues: ["date", "reference", "time"] }),
  mkdir: everyOperand({ shortValues: "m", longValues: ["mode"], longOptionalValues: ["context"] }),
  rmdir: everyOperand({}),
  // A deletion is an edit of the path; recursively, of what lies under it.
  rm: everyOperand({ longOptionalValues: ["interactive"], longFlags: ["recursive", "force", "dir", "verbose"] }, recursive),
  unlink: everyOperand({}),
  truncate: everyOperand({ shortValues: "rs", longValues: ["reference", "size"] }),
  shred: everyOperand({ shortValues: "ns", longValues: ["iterations", "size", "random-source"], longOptionalValues: ["remove"] }),
  chmod: afterFirstOperand({ longValues: ["reference"], longFlags: ["recursive", "changes", "silent", "quiet", "verbose"] }, "rwxXstugoa"),
  chown: afterFirstOperand({ longValues: ["reference", "from"], longFlags: ["recursive", "changes", "silent", "quiet", "verbose", "dereference", "no-dereference"] }),
  chgrp: afterFirstOperand({ longValues: ["reference"], longFlags: ["recursive", "changes", "silent", "quiet", "verbose", "dereference", "no-dereference"] }),
  sed: sedWrites,
  patch: patchWrites,
  tar: tarWrites,
  unzip: unzipWrites,
  curl: curlWrites,
  wget: wgetWrites,
  split: splitWrites,
  csplit: csplitWrites,
  rsync: rsyncWrites,
  scp: scpWrites
}

const gitWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Target> => {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    const text = word === undefined ? undefined : literal(word)
    if (text === undefined) return []
    if (gitGlobalValues.has(text)) {
      index++
      continue
    }
    if (text.startsWith("-")) continue
    return text === "config" ? gitConfigWrites(args.slice(index + 1), (file) => inGitDirectory(args, file)) : []
  }
  return []
}

/** The programs this table reads (for documentation and tests). */
export const writingPrograms: ReadonlyArray<string> = [...Object.keys(programs), "git config"].sort()

/** The files `command` writes through its operands, by its grammar; nothing for a program not in the table. */
export const programWrites = (command: SimpleCommand): ReadonlyArray<Target> => {
  if (command.name === undefined) return []
  const name = baseName(command.name)
  const args = command.argv.slice(1)
  if (name === "git") return gitWrites(args)
  const program = Object.hasOwn(programs, name) ? programs[name] : undefined
  return program === undefined ? [] : program(args)
}

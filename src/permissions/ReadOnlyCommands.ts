/**
 * The commands weft knows to only read: each with an allow-list of options (any other option, and any abbreviated
 * long option, makes the command not read-only: `git diff --out=x` writes), and which of its operands are paths.
 * A line is read-only when every command in it is and nothing is written by a redirection; the paths it reads are
 * returned for the caller to check against the workspace.
 *
 * Decisions: `tail -f` counts as read-only (it only reads; the Bash tool's timeout bounds it). A glob's path is the
 * directory it searches (a link inside it leading out is not followed here). git is trusted to read the configuration
 * of a repository it finds under a `.git` (a protected name: the model cannot write it unasked): a `.git/config` that
 * sets core.fsmonitor, diff.external or a textconv driver runs programs under `git status` / `git diff`, as it would
 * for the user typing them. A repository the model could have planted is not: see gitGlobal.
 */
import {
  isAnalysed,
  isInertAssignment,
  literal,
  writes,
  type Analysis,
  type SimpleCommand,
  type Word
} from "./ShellCommand.js"
import { sedScript, sedScripts } from "./ShellExecution.js"
import { isProcessSubstitution, parseOptions, type OptionSpec, type ParsedOption } from "./ShellOptions.js"

/** A path a read-only command reads: `path` is the word's value, or for a glob the directory it searches. */
export interface ReadPath {
  readonly word: Word
  readonly path: string
}

export type ReadOnlyVerdict =
  | { readonly _tag: "ReadOnly"; readonly paths: ReadonlyArray<ReadPath> }
  | { readonly _tag: "NotReadOnly"; readonly reason: string }

const notReadOnly = (reason: string): ReadOnlyVerdict => ({ _tag: "NotReadOnly", reason })

interface Spec {
  readonly options: OptionSpec
  /** What the operands are: paths (the default), not paths, or the first is a pattern and the rest paths. */
  readonly operands?: "paths" | "none" | "pattern-then-paths" | "not-paths"
  /** Options whose values are paths read. */
  readonly pathOptions?: ReadonlyArray<string>
  /** At most this many operands (`uniq in out` writes out). */
  readonly maxOperands?: number
  /** Any arguments at all, words built at run time included (`echo $HOME`): its options cannot write or run. */
  readonly anyArguments?: boolean
  /** Further checks; a string says why the command is not read-only. */
  readonly check?: (options: ReadonlyArray<ParsedOption>, operands: ReadonlyArray<Word>) => string | undefined
}

const gnu = (shortFlags: string, shortValues: string, longFlags: ReadonlyArray<string>, longValues: ReadonlyArray<string>, rest: Partial<Spec> = {}): Spec => ({
  ...rest,
  options: { shortFlags, shortValues, longFlags: [...longFlags, "help", "version"], longValues, abbreviations: false, ...rest.options }
})

/** A program with no option that writes, runs a program or reads a list of files: a glob may stand anywhere. */
const harmless = (spec: Spec): Spec => ({ ...spec, options: { ...spec.options, globsAreOperands: true } })

// `grep -3`: the old form of -C 3.
const grepSpec = harmless(gnu(
  "EFGPiyvwxclLoqsbHhnTZzaIrRUVu0123456789",
  "efmABCdD",
  [
    "extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case", "no-ignore-case", "word-regexp",
    "line-regexp", "null-data", "no-messages", "invert-match", "byte-offset", "line-number", "line-buffered",
    "with-filename", "no-filename", "only-matching", "quiet", "silent", "text", "recursive", "dereference-recursive",
    "files-without-match", "files-with-matches", "count", "initial-tab", "null", "color", "colour"
  ],
  [
    "regexp", "file", "max-count", "label", "binary-files", "directories", "devices", "include", "exclude", "exclude-from",
    "exclude-dir", "before-context", "after-context", "context"
  ],
  { operands: "pattern-then-paths", pathOptions: ["f", "file", "exclude-from"], options: { longOptionalValues: ["color", "colour"] } }
))

const rgSpec = gnu(
  "iSswxvclLnNHIoFPUaquzl.",
  "egtTABCmMdjr",
  [
    "ignore-case", "smart-case", "case-sensitive", "word-regexp", "line-regexp", "invert-match", "count", "count-matches",
    "files-with-matches", "files-without-match", "follow", "line-number", "no-line-number", "with-filename", "no-filename",
    "no-heading", "heading", "column", "only-matching", "fixed-strings", "pcre2", "multiline", "multiline-dotall", "text",
    "quiet", "unrestricted", "hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent", "no-ignore-dot", "no-ignore-global",
    "no-ignore-exclude", "no-ignore-files", "files", "json", "vimgrep", "stats", "type-list", "trim", "null", "no-messages",
    "passthru", "one-file-system", "no-config", "debug", "binary", "no-binary", "crlf", "byte-offset", "sort-files",
    "max-columns-preview", "glob-case-insensitive", "line-buffered", "block-buffered", "no-unicode", "invert-match", "no-follow"
  ],
  [
    "regexp", "glob", "iglob", "type", "type-not", "type-add", "after-context", "before-context", "context", "max-count",
    "max-depth", "maxdepth", "max-columns", "max-filesize", "threads", "sort", "sortr", "color", "colors", "replace",
    "encoding", "engine", "field-match-separator", "field-context-separator", "context-separator", "path-separator", "dfa-size-limit", "regex-size-limit"
  ],
  // Not --pre (runs a program on each file), --search-zip/-z (runs decompressors), --hostname-bin, --ignore-file (a path: asked).
  { operands: "pattern-then-paths", options: { shortFlags: "iSswxvclLnNHIoFPUaqu.", longOptionalValues: [] } }
)

/** md5sum, sha1sum, sha256sum, sha512sum. */
const checksumSpec = harmless(gnu("bctwz", "", ["binary", "check", "text", "tag", "zero", "ignore-missing", "quiet", "status", "strict", "warn"], []))

const lsSpec = harmless(gnu(
  "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1",
  "ITw",
  [
    "all", "almost-all", "author", "escape", "ignore-backups", "classify", "file-type", "full-time", "group-directories-first",
    "no-group", "human-readable", "si", "dereference-command-line", "dereference-command-line-symlink-to-dir", "hyperlink",
    "inode", "kibibytes", "literal", "numeric-uid-gid", "quote-name", "reverse", "recursive", "size", "context", "directory",
    "dereference", "hide-control-chars", "show-control-chars", "color"
  ],
  ["block-size", "format", "hide", "indicator-style", "ignore", "quoting-style", "sort", "time", "time-style", "tabsize", "width"],
  { options: { longOptionalValues: ["color", "classify", "hyperlink"] } }
))

const none = (shortFlags = "", longFlags: ReadonlyArray<string> = []): Spec => gnu(shortFlags, "", longFlags, [], { operands: "none" })

/** Commands whose every option only shapes their output. */
const anything: Spec = { options: {}, anyArguments: true }

/** Commands read-only on their own. */
const table: Record<string, Spec> = {
  ls: lsSpec,
  dir: lsSpec,
  cat: harmless(gnu("AbeEnstTuv", "", ["show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"], [])),
  tac: harmless(gnu("br", "s", ["before", "regex"], ["separator"])),
  // `head -20`: the old form of -n 20.
  head: harmless(gnu("qvz0123456789", "cn", ["quiet", "silent", "verbose", "zero-terminated"], ["bytes", "lines"])),
  // tail -f only reads (the Bash tool's timeout bounds it).
  tail: harmless(gnu("fFqvz0123456789", "cns", ["quiet", "silent", "verbose", "zero-terminated", "retry"], ["bytes", "lines", "sleep-interval", "pid", "max-unchanged-stats"], {
    options: { longOptionalValues: ["follow"] }
  })),
  wc: gnu("clmwL", "", ["bytes", "chars", "lines", "words", "max-line-length"], ["total"]),
  pwd: none("LP"),
  echo: anything,
  printf: anything,
  true: anything,
  false: anything,
  ":": anything,
  test: anything,
  "[": anything,
  grep: grepSpec,
  egrep: grepSpec,
  fgrep: grepSpec,
  rg: rgSpec,
  sort: gnu(
    "bdfgiMhnRrVcCmsuz",
    "kStT",
    ["ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "check", "merge", "stable", "unique", "zero-terminated", "debug"],
    ["key", "buffer-size", "field-separator", "temporary-directory", "parallel", "sort", "check"]
  ),
  uniq: gnu("cdDiuz", "fsw", ["count", "repeated", "ignore-case", "unique", "zero-terminated"], ["all-repeated", "skip-fields", "skip-chars", "check-chars", "group"], { maxOperands: 1 }),
  cut: harmless(gnu("snz", "bcdf", ["complement", "only-delimited", "zero-terminated"], ["bytes", "characters", "delimiter", "fields", "output-delimiter"])),
  tr: gnu("cCdst", "", ["complement", "delete", "squeeze-repeats", "truncate-set1"], [], { operands: "none" }),
  nl: harmless(gnu("p", "bdfhilnsvw", [], [])),
  diff: gnu(
    "abBdeEfilNnpqrstTuwyZ",
    "CUIxXFLSD",
    [
      "text", "ignore-blank-lines", "ignore-space-change", "ignore-all-space", "ignore-case", "ignore-tab-expansion",
      "ignore-trailing-space", "minimal", "new-file", "unidirectional-new-file", "report-identical-files", "brief",
      "recursive", "side-by-side", "suppress-common-lines", "expand-tabs", "initial-tab", "strip-trailing-cr", "normal",
      "show-c-function", "left-column", "speed-large-files", "suppress-blank-empty", "color"
    ],
    ["context", "unified", "ignore-matching-lines", "exclude", "exclude-from", "show-function-line", "label", "starting-file", "width", "tabsize", "to-file", "from-file", "line-format", "new-line-format", "old-line-format", "unchanged-line-format", "horizon-lines"],
    { pathOptions: ["X", "exclude-from", "to-file", "from-file"], options: { longOptionalValues: ["color", "context", "unified"] } }
  ),
  cmp: gnu("bls", "in", ["print-bytes", "verbose", "quiet", "silent"], ["ignore-initial", "bytes"]),
  comm: gnu("123z", "", ["check-order", "nocheck-order", "zero-terminated", "total"], ["output-delimiter"]),
  file: gnu("bcdEhiklLNnprsSvz0", "eFP", ["brief", "dereference", "no-dereference", "mime", "mime-type", "mime-encoding", "keep-going", "no-pad", "no-buffer", "preserve-date", "raw", "special-files", "uncompress", "uncompress-noreport", "print0", "extension", "apple"], ["exclude", "separator", "parameter"], {
    options: { shortFlags: "bdEhiklLNnprsSvz0" }
  }),
  stat: harmless(gnu("LftZ", "c", ["dereference", "file-system", "terse"], ["format", "printf", "cached"])),
  du: gnu("0abcDhHklLmPsSx", "dBtX", ["null", "all", "apparent-size", "bytes", "total", "dereference-args", "human-readable", "inodes", "count-links", "dereference", "no-dereference", "separate-dirs", "si", "summarize", "one-file-system", "time"], ["max-depth", "block-size", "threshold", "exclude", "time-style"], {
    pathOptions: ["X", "exclude-from"]
  }),
  df: gnu("ahHiklPTv", "BtxF", ["all", "human-readable", "si", "inodes", "local", "portability", "print-type", "total", "no-sync", "sync"], ["block-size", "type", "exclude-type", "output"], {
    options: { longOptionalValues: ["output"] }
  }),
  which: none("as"),
  whereis: gnu("bmsu", "BMSf", [], [], { operands: "not-paths" }),
  type: { options: { shortFlags: "afptP", abbreviations: false }, operands: "not-paths" },
  basename: anything,
  dirname: anything,
  realpath: gnu("eLmPqsz", "", ["canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "strip", "no-symlinks", "zero"], ["relative-to", "relative-base"], { operands: "not-paths" }),
  readlink: gnu("efmnqsvz", "", ["canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"], [], { operands: "not-paths" }),
  date: gnu("uRI", "d", ["utc", "universal", "rfc-email", "debug"], ["date", "iso-8601", "rfc-3339"], {
    operands: "none",
    // An operand other than +FORMAT sets the clock.
    check: (_options, operands) => (operands.every((word) => literal(word)?.startsWith("+") === true) ? undefined : "`date` with an operand other than +FORMAT sets the clock"),
    options: { shortOptionalValues: "I", longOptionalValues: ["iso-8601"] }
  }),
  whoami: none(),
  id: gnu("aZgGnruz", "", ["context", "group", "groups", "name", "real", "user", "zero"], [], { operands: "not-paths" }),
  uname: none("asnrvmpio", ["all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine", "processor", "hardware-platform", "operating-system"]),
  // An operand sets the host name.
  hostname: { ...none("fsidAI", ["fqdn", "short", "ip-address", "domain", "all-fqdns", "all-ip-addresses"]), maxOperands: 0 },
  uptime: none("ps", ["pretty", "since"]),
  nproc: none("", ["all"]),
  arch: none(),
  tty: none("s", ["silent", "quiet"]),
  locale: none("ackm", ["all-locales", "charmaps", "category-name", "keyword-name"]),
  printenv: { options: { shortFlags: "0", longFlags: ["null"], abbreviations: false }, operands: "not-paths" },
  seq: anything,
  expr: anything,
  rev: none(),
  fold: harmless(gnu("bs", "w", ["bytes", "spaces"], ["width"])),
  fmt: gnu("cstu", "pgw", ["crown-margin", "split-only", "tagged-paragraph", "uniform-spacing"], ["prefix", "goal", "width"]),
  column: gnu("tnexJLR", "cdNoOHrsSWl", ["table", "fillrows", "json", "keep-empty-lines"], ["output-width", "separator", "output-separator", "table-columns", "table-name"]),
  paste: gnu("sz", "d", ["serial", "zero-terminated"], ["delimiters"]),
  join: gnu("ivz", "aejt12o", ["ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"], []),
  od: harmless(gnu("bcdfilosvx", "AjNtSw", ["output-duplicates", "traditional"], ["address-radix", "skip-bytes", "read-bytes", "format", "strings", "width", "endian"])),
  hexdump: harmless(gnu("bcCdovx", "enNs", [], [])),
  xxd: gnu("aEipsuCbre", "cgnlos", [], [], {
    // `xxd in out` writes out; -r turns a dump back into a file.
    maxOperands: 1,
    options: { shortFlags: "aEipuCbe", shortValues: "cgnlos" }
  }),
  strings: harmless(gnu("afwd", "nteT", ["all", "print-file-name", "include-all-whitespace", "data"], ["bytes", "radix", "encoding", "target", "output-separator"])),
  md5sum: checksumSpec,
  sha1sum: checksumSpec,
  sha256sum: checksumSpec,
  sha512sum: checksumSpec,
  cksum: gnu("", "a", ["raw", "tag", "untagged", "base64", "check"], ["algorithm", "length"]),
  base64: gnu("di", "w", ["decode", "ignore-garbage"], ["wrap"], { maxOperands: 1 }),
  jq: gnu("rjacnsSeCMj", "", ["raw-output", "join-output", "ascii-output", "compact-output", "null-input", "slurp", "sort-keys", "exit-status", "color-output", "monochrome-output", "tab", "raw-input", "seq", "stream"], ["arg", "argjson", "indent"], {
    operands: "pattern-then-paths"
  }),
  tree: gnu("adfgilpsuDFhqQNrtvxACJXL", "PILH", ["noreport", "dirsfirst", "du", "prune", "charset", "filelimit", "timefmt", "gitignore", "matchdirs", "ignore-case", "info"], ["charset", "filelimit", "timefmt", "sort"], {
    options: { shortFlags: "adfgilpsuDFhqQNrtvxACJX", shortValues: "PILH" }
  }),
  cd: {
    options: { shortFlags: "LPe@", abbreviations: false, stopAtOperand: true },
    // `cd` alone goes home, `cd -` to the previous directory: both outside what can be checked here.
    check: (_options, operands) => (operands.length === 1 && literal(operands[0] ?? { source: "", value: undefined, glob: false, brace: false, tilde: false }) !== "-" ? undefined : "`cd` without a directory, or `cd -`, leaves for a directory not named")
  },
  sed: gnu("nrEsuz", "el", ["quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix", "debug", "sandbox", "follow-symlinks"], ["expression", "line-length"], {
    // No -i/--in-place (writes), no -f (a script file not read here).
    operands: "pattern-then-paths",
    check: (options, operands) => {
      const scripts = sedScripts([
        ...options.flatMap((option) => (option.name === "e" || option.name === "expression" ? [{ source: "-e", value: "-e", glob: false, brace: false, tilde: false }, wordOfOption(option)] : [])),
        ...operands
      ])
      if (scripts === undefined) return "its script is not static"
      const verdicts = scripts.map(sedScript)
      if (verdicts.includes("executes")) return "its script runs commands (`e`)"
      if (verdicts.includes("writes")) return "its script writes files (`w`, `W` or the `w` flag)"
      if (verdicts.includes("unknown")) return "its script holds commands this check does not read as printing only (`r`, `R` or unknown)"
      return undefined
    }
  }),
  awk: {
    options: { shortValues: "Fv", abbreviations: false },
    operands: "pattern-then-paths",
    check: (_options, operands) => {
      const program = operands[0] === undefined ? undefined : literal(operands[0])
      if (program === undefined) return "its program is not static"
      // Output redirection (`print > "file"`), pipes and system() are not reading.
      return /[>|]|\bsystem\s*\(|\bgetline\b|\bfflush\b|@/.test(program) ? "its program writes, pipes or runs commands" : undefined
    }
  }
}

const wordOfOption = (option: ParsedOption): Word => {
  const value = option.value
  if (value === undefined) return { source: "", value: "", glob: false, brace: false, tilde: false }
  return typeof value === "string" ? { source: value, value, glob: false, brace: false, tilde: false } : value
}

// find: the expression is read predicate by predicate; -exec, -delete, -fprint... are not read-only.
const findPredicates: Record<string, number> = {
  "-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1, "-regextype": 1,
  "-type": 1, "-xtype": 1, "-size": 1, "-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1, "-ctime": 1, "-cmin": 1, "-used": 1,
  "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1, "-maxdepth": 1, "-mindepth": 1, "-links": 1, "-inum": 1, "-lname": 1,
  "-ilname": 1, "-printf": 1, "-fstype": 1, "-context": 1,
  "-newer": 1, "-anewer": 1, "-cnewer": 1, "-samefile": 1,
  "-empty": 0, "-print": 0, "-print0": 0, "-ls": 0, "-prune": 0, "-not": 0, "!": 0, "-o": 0, "-or": 0, "-a": 0, "-and": 0,
  "(": 0, ")": 0, ",": 0, "-follow": 0, "-depth": 0, "-xdev": 0, "-mount": 0, "-readable": 0, "-writable": 0, "-executable": 0,
  "-true": 0, "-false": 0, "-quit": 0, "-daystart": 0, "-noleaf": 0, "-nouser": 0, "-nogroup": 0, "-ignore_readdir_race": 0,
  "-noignore_readdir_race": 0, "-warn": 0, "-nowarn": 0
}
const findPathPredicates = new Set(["-newer", "-anewer", "-cnewer", "-samefile"])

const findCheck = (args: ReadonlyArray<Word>): ReadOnlyVerdict => {
  const paths: Array<Word> = []
  let index = 0
  // Options before the paths.
  while (index < args.length) {
    const text = literal(args[index] ?? { source: "", value: undefined, glob: false, brace: false, tilde: false })
    if (text === "-H" || text === "-L" || text === "-P" || text === "-O0" || text === "-O1" || text === "-O2" || text === "-O3") {
      index++
      continue
    }
    if (text === "-D") {
      index += 2
      continue
    }
    break
  }
  // The starting points: words up to the first that begins an expression.
  while (index < args.length) {
    const word = args[index]
    if (word === undefined) break
    const text = word.value
    if (text !== undefined && (text.startsWith("-") || text === "(" || text === "!" || text === ")" || text === ",")) break
    paths.push(word)
    index++
  }
  while (index < args.length) {
    const word = args[index]
    if (word === undefined) break
    const text = literal(word)
    if (text === undefined) return notReadOnly("`find` is given a word built at run time where its expression stands")
    const arity = Object.hasOwn(findPredicates, text) ? findPredicates[text] : /^-newer[amcBt][amcBt]$/.test(text) ? 1 : undefined
    if (arity === undefined) return notReadOnly(`\`find ${text}\` is not known to be read-only`)
    if (findPathPredicates.has(text) && args[index + 1] !== undefined) paths.push(args[index + 1] as Word)
    index += 1 + arity
  }
  if (paths.length === 0) paths.push({ source: ".", value: ".", glob: false, brace: false, tilde: false })
  return readPaths(paths)
}

// git: global options, then a subcommand with its own allow-list.
const gitLogLike = [
  "stat", "numstat", "shortstat", "name-only", "name-status", "oneline", "patch", "no-patch", "cached", "staged", "no-color",
  "ignore-space-change", "ignore-all-space", "ignore-space-at-eol", "ignore-blank-lines", "ignore-cr-at-eol", "summary", "graph",
  "all", "reverse", "first-parent", "merges", "no-merges", "abbrev-commit", "no-abbrev-commit", "follow", "pickaxe-all",
  "patch-with-stat", "minimal", "histogram", "patience", "raw", "full-index", "binary", "no-prefix", "exit-code", "quiet", "check",
  "left-right", "cherry-pick", "cherry-mark", "boundary", "topo-order", "date-order", "author-date-order", "no-walk", "notes",
  "no-notes", "expand-tabs", "no-expand-tabs", "no-renames", "text", "function-context", "color-words", "no-ext-diff",
  "no-textconv", "ita-invisible-in-index", "merge-base", "branches", "tags", "remotes", "full-history", "simplify-merges",
  "ancestry-path", "source", "use-mailmap", "log-size", "parents", "children", "relative-date", "show-linear-break",
  "no-decorate", "decorate", "name-rev", "irreversible-delete", "numbered", "ignore-submodules", "find-renames",
  "find-copies", "find-copies-harder", "compact-summary", "combined-all-paths", "cc", "remerge-diff", "dense-combined", "no-standard-notes",
  "standard-notes", "show-pulls", "regexp-ignore-case", "basic-regexp", "extended-regexp", "fixed-strings", "perl-regexp",
  "all-match", "invert-grep", "no-min-parents", "no-max-parents", "show-notes-by-default", "unified", "word-diff", "color",
  "dirstat", "relative", "submodule", "stdin", "only-matching"
]
const gitLogLikeValues = [
  "format", "pretty", "max-count", "skip", "since", "after", "until", "before", "author", "committer", "grep", "date",
  "diff-filter", "src-prefix", "dst-prefix", "line-prefix", "abbrev", "decorate-refs", "decorate-refs-exclude", "min-parents",
  "max-parents", "encoding", "inter-hunk-context", "diff-algorithm", "word-diff-regex", "color-moved", "color-moved-ws",
  "anchored", "ignore-matching-lines", "stat-width", "stat-name-width", "stat-count", "stat-graph-width", "exclude", "glob",
  "show-notes", "notes-ref", "break-rewrites", "find-object", "output-indicator-new", "output-indicator-old", "output-indicator-context",
  "rotate-to", "skip-to", "diff-merges", "orderfile"
]
const gitLogSpec: OptionSpec = {
  shortFlags: "psuwbRzaWtimMCBDrv0123456789",
  shortValues: "USGLOlnX",
  longFlags: gitLogLike,
  longValues: gitLogLikeValues,
  longOptionalValues: ["color", "decorate", "word-diff", "dirstat", "relative", "submodule", "abbrev", "find-renames", "find-copies", "unified", "pretty", "notes", "color-moved", "show-notes", "break-rewrites"],
  abbreviations: false
}

const gitSubcommands: Record<string, OptionSpec & { readonly check?: (options: ReadonlyArray<ParsedOption>, operands: ReadonlyArray<Word>) => string | undefined }> = {
  status: {
    shortFlags: "sbuvz",
    longFlags: ["short", "branch", "show-stash", "porcelain", "long", "verbose", "null", "ahead-behind", "no-ahead-behind", "renames", "no-renames", "untracked-files", "ignored", "ignore-submodules"],
    longOptionalValues: ["porcelain", "untracked-files", "ignored", "ignore-submodules", "column", "find-renames"],
    shortOptionalValues: "u",
    abbreviations: false
  },
  diff: gitLogSpec,
  log: gitLogSpec,
  show: gitLogSpec,
  shortlog: { shortFlags: "nsec", longFlags: ["numbered", "summary", "email", "committer", "all"], longValues: ["format", "group", "since", "until"], abbreviations: false },
  whatchanged: gitLogSpec,
  "diff-tree": gitLogSpec,
  "diff-index": gitLogSpec,
  "diff-files": gitLogSpec,
  "rev-parse": {
    shortFlags: "q",
    longFlags: [
      "show-toplevel", "show-prefix", "show-cdup", "git-dir", "git-common-dir", "absolute-git-dir", "is-inside-work-tree",
      "is-inside-git-dir", "is-bare-repository", "is-shallow-repository", "verify", "quiet", "symbolic", "symbolic-full-name",
      "all", "branches", "tags", "remotes", "local-env-vars", "show-superproject-working-tree", "sq", "not", "revs-only",
      "no-revs", "flags", "no-flags", "default"
    ],
    longValues: ["short", "abbrev-ref", "git-path", "resolve-git-dir", "since", "until", "path-format", "show-object-format", "after", "before"],
    longOptionalValues: ["short", "abbrev-ref", "show-object-format"],
    abbreviations: false
  },
  "ls-files": { shortFlags: "cdmoiskuzftvl", shortValues: "xX", longFlags: ["cached", "deleted", "modified", "others", "ignored", "stage", "killed", "unmerged", "exclude-standard", "directory", "no-empty-directory", "full-name", "recurse-submodules", "error-unmatch", "eol", "deduplicate", "sparse", "debug", "resolve-undo", "abbrev"], longValues: ["exclude", "with-tree", "format"], abbreviations: false },
  "ls-tree": { shortFlags: "dlrtz", longFlags: ["long", "name-only", "name-status", "object-only", "full-name", "full-tree", "abbrev"], longValues: ["format"], abbreviations: false },
  "cat-file": { shortFlags: "tspe", longFlags: ["batch-check", "batch", "batch-all-objects", "follow-symlinks", "unordered", "allow-unknown-type", "mailmap", "no-mailmap"], abbreviations: false },
  blame: { shortFlags: "bclnpsteflwM0123456789C", shortValues: "LS", longFlags: ["root", "show-stats", "porcelain", "line-porcelain", "incremental", "show-name", "show-number", "show-email", "minimal"], longValues: ["date", "abbrev", "ignore-rev", "ignore-revs-file"], abbreviations: false },
  "merge-base": { shortFlags: "a", longFlags: ["all", "octopus", "independent", "is-ancestor", "fork-point"], abbreviations: false },
  "name-rev": { longFlags: ["name-only", "no-undefined", "always", "all", "annotate-stdin"], longValues: ["tags", "refs", "exclude"], abbreviations: false },
  "for-each-ref": { longFlags: ["shell", "perl", "python", "tcl", "ignore-case", "omit-empty", "stdin"], longValues: ["count", "sort", "format", "points-at", "merged", "no-merged", "contains", "no-contains", "exclude"], abbreviations: false },
  "show-ref": { shortFlags: "dsq", longFlags: ["head", "heads", "branches", "tags", "dereference", "quiet", "verify", "exists"], longValues: ["hash", "abbrev"], longOptionalValues: ["hash", "abbrev"], abbreviations: false },
  "count-objects": { shortFlags: "vH", longFlags: ["verbose", "human-readable"], abbreviations: false },
  "rev-list": { ...gitLogSpec, longFlags: [...gitLogLike, "count", "objects", "objects-edge", "left-only", "right-only", "bisect", "timestamp", "header", "in-commit-order"] },
  describe: { longFlags: ["all", "tags", "contains", "long", "always", "first-parent", "exact-match", "debug"], longValues: ["abbrev", "candidates", "match", "exclude", "dirty", "broken"], longOptionalValues: ["dirty", "broken", "abbrev"], abbreviations: false },
  "check-ignore": { shortFlags: "qvnz", longFlags: ["quiet", "verbose", "non-matching", "no-index", "stdin"], abbreviations: false },
  "check-attr": { shortFlags: "az", longFlags: ["all", "cached", "stdin"], longValues: ["source"], abbreviations: false },
  grep: { shortFlags: "aiIwvhHEGFPnlLcoqzrW0123456789", shortValues: "efABCm", longFlags: ["cached", "untracked", "no-index", "recurse-submodules", "text", "ignore-case", "word-regexp", "invert-match", "full-name", "extended-regexp", "basic-regexp", "fixed-strings", "perl-regexp", "line-number", "column", "files-with-matches", "name-only", "files-without-match", "count", "null", "break", "heading", "show-function", "function-context", "all-match", "quiet", "and", "or", "not", "only-matching"], longValues: ["max-depth", "context", "after-context", "before-context", "threads", "max-count"], abbreviations: false, check: (options) => (options.some((option) => option.name === "no-index" || option.name === "f") ? "`git grep --no-index` or `-f` reads files outside the repository" : undefined) },
  version: { abbreviations: false },
  branch: {
    shortFlags: "arlv",
    longFlags: ["all", "remotes", "list", "verbose", "show-current", "ignore-case", "omit-empty", "no-column", "no-color"],
    longValues: ["merged", "no-merged", "contains", "no-contains", "points-at", "sort", "format", "abbrev"],
    longOptionalValues: ["color", "column", "merged", "no-merged", "contains", "no-contains", "abbrev"],
    abbreviations: false,
    // Operands name a branch to create unless listing (`--list <pattern>`).
    check: (options, operands) => (operands.length === 0 || options.some((option) => option.name === "l" || option.name === "list") ? undefined : "`git branch <name>` creates a branch")
  },
  tag: {
    shortFlags: "ln",
    longFlags: ["list", "ignore-case", "omit-empty", "no-column"],
    longValues: ["sort", "format", "contains", "no-contains", "merged", "no-merged", "points-at"],
    longOptionalValues: ["color", "column", "contains", "merged", "no-merged"],
    abbreviations: false,
    check: (options, operands) => (operands.length === 0 || options.some((option) => option.name === "l" || option.name === "list") ? undefined : "`git tag <name>` creates a tag")
  },
  remote: {
    shortFlags: "v",
    longFlags: ["verbose"],
    abbreviations: false,
    check: (_options, operands) => {
      const first = operands[0] === undefined ? undefined : literal(operands[0])
      return operands.length === 0 || first === "get-url" ? undefined : "`git remote` with a subcommand changes or contacts remotes"
    }
  },
  stash: {
    abbreviations: false,
    check: (_options, operands) => {
      const first = operands[0] === undefined ? undefined : literal(operands[0])
      return first === "list" || first === "show" ? undefined : "`git stash` other than list or show changes the working tree"
    },
    ...gitLogSpec
  },
  worktree: { abbreviations: false, longFlags: ["porcelain", "verbose"], shortFlags: "vz", check: (_options, operands) => (operands.length === 1 && literal(operands[0] ?? { source: "", value: undefined, glob: false, brace: false, tilde: false }) === "list" ? undefined : "only `git worktree list` is read-only") },
  reflog: { ...gitLogSpec, check: (_options, operands) => (operands.length === 0 || literal(operands[0] ?? { source: "", value: undefined, glob: false, brace: false, tilde: false }) === "show" ? undefined : "`git reflog` other than show changes the reflog") },
  config: {
    shortFlags: "lz",
    longFlags: ["list", "get", "get-all", "get-regexp", "get-urlmatch", "global", "system", "local", "worktree", "show-origin", "show-scope", "name-only", "null", "includes", "no-includes", "bool", "int", "path", "bool-or-int", "expiry-date"],
    longValues: ["type", "default"],
    abbreviations: false,
    check: (options, operands) =>
      options.some((option) => ["l", "list", "get", "get-all", "get-regexp", "get-urlmatch"].includes(option.name)) ||
      (operands.length > 0 && ["get", "list"].includes(literal(operands[0] ?? { source: "", value: undefined, glob: false, brace: false, tilde: false }) ?? ""))
        ? operands.length <= 3
          ? undefined
          : "`git config` given a value sets it"
        : "`git config` other than --get/--list sets a value"
  }
}

/**
 * git's own options before the subcommand. Not read-only, so asked about: `-c`, `--config-env`, `--exec-path` (they
 * name programs to run), and `--git-dir`, `--work-tree`, `--bare` (they point git at a repository of the model's
 * choosing, whose config may run programs under `git status` / `git show`: a planted repository is plain files).
 * `-C dir` stays: git discovers the repository from there, and weft's shells set `safe.bareRepository=explicit`
 * (ChildEnvironment.withGitSafety), so a planted bare repository is refused and a non-bare one needs a protected `.git`.
 */
const gitGlobal: OptionSpec = {
  shortFlags: "Pp",
  shortValues: "C",
  longFlags: ["no-pager", "paginate", "no-replace-objects", "no-optional-locks", "literal-pathspecs", "glob-pathspecs", "noglob-pathspecs", "icase-pathspecs", "no-lazy-fetch", "no-advice", "version", "help"],
  longValues: ["namespace"],
  abbreviations: false,
  stopAtOperand: true
}

const gitCheck = (args: ReadonlyArray<Word>): ReadOnlyVerdict => {
  const global = parseOptions(args, gitGlobal)
  if (global._tag === "Unknown") return notReadOnly(`\`git ${global.word}\` is not known to be read-only (${global.why})`)
  const paths: Array<Word> = []
  for (const option of global.options) {
    if (option.name === "C") paths.push(wordOfOption(option))
  }
  const subcommandWord = args[global.firstOperand]
  if (subcommandWord === undefined) return readPaths(paths)
  const subcommand = literal(subcommandWord)
  if (subcommand === undefined) return notReadOnly("`git`'s subcommand is built at run time")
  const spec = Object.hasOwn(gitSubcommands, subcommand) ? gitSubcommands[subcommand] : undefined
  if (spec === undefined) return notReadOnly(`\`git ${subcommand}\` is not known to be read-only`)
  const rest = args.slice(global.firstOperand + 1)
  // Paths after `--` are pathspecs inside the repository: git refuses paths outside it (--no-index is not allowed).
  const dashDash = rest.findIndex((word) => literal(word) === "--")
  const parsed = parseOptions(dashDash === -1 ? rest : rest.slice(0, dashDash), { ...spec, stopAtOperand: false })
  if (parsed._tag === "Unknown") return notReadOnly(`\`git ${subcommand} ${parsed.word}\` is not known to be read-only (${parsed.why})`)
  const problem = spec.check?.(parsed.options, parsed.operands)
  if (problem !== undefined) return notReadOnly(problem)
  return readPaths(paths)
}

/**
 * A glob's directory: the part before its first pattern component. Undefined when a component could match `..`,
 * or when a `..` follows a pattern component (`cat *\/../../etc/passwd` reads from above whatever matched).
 */
const globDirectory = (pattern: string): string | undefined => {
  const components = pattern.split("/")
  const fixed: Array<string> = []
  let seenGlob = false
  for (const component of components) {
    const isGlob = /[*?[]/.test(component) || /[?*+@!]\(/.test(component)
    // `.*` matches `..` in Bash before 5.2 (globskipdots), `[.]` ... may match a dot, and so may an extended glob.
    if (isGlob && (component.startsWith(".") || component.startsWith("[") || component.includes("."))) {
      if (/^\.[*?[]/.test(component) || component.startsWith("[") || /[?*+@!]\(/.test(component)) return undefined
    }
    if (seenGlob && component === "..") return undefined
    if (isGlob) seenGlob = true
    if (!seenGlob) fixed.push(component)
  }
  const directory = fixed.join("/")
  return directory === "" ? (pattern.startsWith("/") ? "/" : ".") : directory
}

export const readPaths = (words: ReadonlyArray<Word>): ReadOnlyVerdict => {
  const paths: Array<ReadPath> = []
  for (const word of words) {
    // `<(cmd)`: a pipe from a command analysed on its own.
    if (isProcessSubstitution(word)) continue
    if (word.tilde) return notReadOnly(`\`${word.source}\` names a home directory`)
    if (word.value === undefined || word.brace) return notReadOnly(`the path \`${word.source}\` is known only when the command runs`)
    if (word.value === "-") continue
    if (word.glob) {
      const directory = globDirectory(word.value)
      if (directory === undefined) return notReadOnly(`the pattern \`${word.source}\` may match \`..\``)
      paths.push({ word, path: directory })
    } else {
      paths.push({ word, path: word.value })
    }
  }
  return { _tag: "ReadOnly", paths }
}

/**
 * Whether one command only reads; if so, the paths it reads. Its redirections are not its own doing: files they
 * write are listed by ShellCommand.writes (checked as edits), and readOnly(analysis) counts them.
 */
export const readOnlyCommand = (command: SimpleCommand): ReadOnlyVerdict => {
  if (!command.assignments.every(isInertAssignment)) return notReadOnly("an environment assignment may change what the command does")
  if (command.argv.length === 0) return { _tag: "ReadOnly", paths: [] }
  for (const wrapper of command.wrappers) {
    if (!readOnlyWrappers.has(wrapper.name)) return notReadOnly(`\`${wrapper.name}\` is not a read-only wrapper`)
    // `time -o file` writes its report; `env -C dir` moves the command away from the directory paths are checked in.
    const options = wrapper.argv.map((word) => literal(word) ?? "")
    if (wrapper.name === "time" && options.some((option) => /^-[a-z]*[oa]|^--(output|append)/.test(option))) return notReadOnly("`time -o` writes a file")
    if (wrapper.name === "env" && options.some((option) => /^-[a-zA-Z0-9]*C|^--chdir/.test(option))) return notReadOnly("`env -C` runs the command in another directory")
  }
  const name = command.name
  if (name === undefined) return notReadOnly("the command name is built at run time")
  const args = command.argv.slice(1)
  if (name === "git") return gitCheck(args)
  if (name === "find") return findCheck(args)
  if (name === "command" && args.length > 0 && ["-v", "-V"].includes(literal(args[0] as Word) ?? "")) return { _tag: "ReadOnly", paths: [] }
  const spec = Object.hasOwn(table, name) ? table[name] : undefined
  if (spec === undefined) return notReadOnly(`\`${name}\` is not a known read-only command`)
  if (spec.anyArguments === true) return { _tag: "ReadOnly", paths: [] }
  const parsed = parseOptions(args, spec.options)
  if (parsed._tag === "Unknown") return notReadOnly(`\`${name} ${parsed.word}\` is not known to be read-only (${parsed.why})`)
  const problem = spec.check?.(parsed.options, parsed.operands)
  if (problem !== undefined) return notReadOnly(`\`${name}\`: ${problem}`)
  if (spec.maxOperands !== undefined && parsed.operands.length > spec.maxOperands) return notReadOnly(`\`${name}\` with ${parsed.operands.length} operands writes the last`)
  const pathWords: Array<Word> = []
  for (const option of parsed.options) {
    if (spec.pathOptions?.includes(option.name) === true) pathWords.push(wordOfOption(option))
  }
  const operands = spec.operands ?? "paths"
  if (operands === "paths") pathWords.push(...parsed.operands)
  if (operands === "pattern-then-paths") {
    const patternGiven = parsed.options.some((option) => ["e", "f", "regexp", "file", "expression"].includes(option.name))
    pathWords.push(...(patternGiven ? parsed.operands : parsed.operands.slice(1)))
  }
  return readPaths(pathWords)
}

/** Wrappers that change nothing about what a read-only command does. */
const readOnlyWrappers = new Set(["nice", "timeout", "time", "stdbuf", "command", "builtin", "env", "ionice", "nohup"])

/**
 * Each command of the line with its read-only verdict, in order. Its own `< file` redirections are paths it reads.
 * After a `cd` (or pushd/popd), a relative path climbing with `..` is refused: the caller resolves paths from the
 * shell's directory, which the `cd` has moved.
 */
export const commandVerdicts = (analysis: Analysis): ReadonlyArray<{ readonly command: SimpleCommand; readonly verdict: ReadOnlyVerdict }> => {
  let changedDirectory = false
  return analysis.commands.map((command) => {
    const own = readOnlyCommand(command)
    const redirected = readPaths(command.redirects.flatMap((redirect) => (redirect.kind === "read" && redirect.target !== undefined ? [redirect.target] : [])))
    let verdict: ReadOnlyVerdict = own._tag === "NotReadOnly" ? own : redirected._tag === "NotReadOnly" ? redirected : { _tag: "ReadOnly", paths: [...own.paths, ...redirected.paths] }
    if (verdict._tag === "ReadOnly" && changedDirectory) {
      const climbing = verdict.paths.find((path) => !path.path.startsWith("/") && path.path.split("/").includes(".."))
      if (climbing !== undefined) verdict = notReadOnly(`\`${climbing.word.source}\` climbs out of a directory changed to earlier in the command`)
    }
    if (command.name === "cd" || command.name === "pushd" || command.name === "popd") changedDirectory = true
    return { command, verdict }
  })
}

/** Reads by redirections on compound commands (`while ...; done < file`), which no simple command holds. */
export const compoundReads = (analysis: Analysis): ReadonlyArray<Word> => {
  const held = new Set(analysis.commands.flatMap((command) => command.redirects))
  return analysis.redirects.flatMap((redirect) => (redirect.kind === "read" && redirect.target !== undefined && !held.has(redirect) ? [redirect.target] : []))
}

/**
 * Whether the whole line only reads: analysed, every command read-only, no redirection writes a file. The paths
 * are what the commands read; the caller checks each lies in the workspace.
 */
export const readOnly = (analysis: Analysis): ReadOnlyVerdict => {
  if (!isAnalysed(analysis)) return notReadOnly(analysis.unanalysable.map((reason) => reason.message).join(" "))
  const written = writes(analysis)
  if (written.length > 0) return notReadOnly(`the command writes ${written.map((word) => `\`${word.source}\``).join(", ")}`)
  const paths: Array<ReadPath> = []
  for (const { verdict } of commandVerdicts(analysis)) {
    if (verdict._tag === "NotReadOnly") return verdict
    paths.push(...verdict.paths)
  }
  const compound = readPaths(compoundReads(analysis))
  if (compound._tag === "NotReadOnly") return compound
  return { _tag: "ReadOnly", paths: [...paths, ...compound.paths] }
}

export const isReadOnly = (analysis: Analysis): boolean => readOnly(analysis)._tag === "ReadOnly"

/** The commands in the built-in table (git and find included), for documentation and tests. */
export const readOnlyCommandNames: ReadonlyArray<string> = [...Object.keys(table), "git", "find"].sort()

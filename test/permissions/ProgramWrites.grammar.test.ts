import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { programWrites, type Target } from "../../src/permissions/ProgramWrites.js"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"

// ---------------------------------------------------------------------------------------------------------------
// More of each program's grammar, pinned by the files written (`~` a tree write, `[g]` a glob, `?` known only at run
// time): every option that takes a value takes it (its value is then no operand), long options resolve by their
// unique prefixes and an ambiguous prefix is none of the options it could be, and the edges of each operand rule.

const writes = (command: string) =>
  Effect.gen(function* () {
    const analysis = yield* ShellCommand.analyze(command)
    expect(ShellCommand.isAnalysed(analysis)).toBe(true)
    return analysis.commands.flatMap(programWrites)
  })

const describeTarget = (target: Target) => (target.path === undefined ? "?" : `${target.path}${target.tree ? "~" : ""}${target.glob ? "[g]" : ""}`)

// Options that take a value and write nothing: the value is taken, so it is neither a URL nor a file operand.
const curlValues = [
  "data", "data-binary", "data-raw", "data-urlencode", "header", "user-agent", "referer", "request", "url", "proxy", "cookie", "form",
  "max-time", "connect-timeout", "retry", "write-out", "upload-file", "range", "cert", "key", "cacert"
]
const patchValues = ["prefix", "ifdef", "fuzz", "get", "input", "strip", "version-control", "basename-prefix", "suffix", "quoting-style", "merge", "backup-if-mismatch"]
const gitConfigValues = ["type", "default", "comment", "value"]

const grammar: ReadonlyArray<readonly [command: string, written: ReadonlyArray<string>]> = [
  ...curlValues.map((option) => [`curl -O --${option} v https://x/a`, ["a"]] as const),
  ...patchValues.map((option) => [`patch --${option} v f`, ["f"]] as const),
  ...gitConfigValues.map((option) => [`git config --${option} v a`, []] as const),
  ...gitConfigValues.map((option) => [`git config --${option} v a b`, [".git/config"]] as const),
  // sed: -i's suffix is attached only (`-ien` is -i with suffix "en", not -i -e n); -l takes a value.
  ["sed -ien x f", ["f"]],
  ["sed -i --line-length 5 s/a/b/ f", ["f"]],
  // `--f` is ambiguous (--file, --follow-symlinks): it is read as a flag named f, which marks a script as given.
  ["sed -i --f x f", ["x", "f"]],
  // patch: --output writes its value; a flag sharing a prefix with an option taking a value keeps the prefix ambiguous.
  ["patch --output o f", ["o", "f"]],
  ["patch --backup f", ["f"]],
  ["patch --re f", ["f"]],
  ["patch --qu f", ["f"]],
  ["patch --ver f", ["f"]],
  ["patch --p f", ["f"]],
  ["patch -d sub -o $F f", ["?", "sub/f"]],
  // curl: prefixes shared by a flag and an option taking a value; a missing --url writes nothing.
  ["curl --l x https://x", []],
  ["curl --f -o out https://x", ["out"]],
  ["curl --remote-name https://x/a https://x/b", ["a"]],
  ["curl -O --url", []],
  ["curl -K cfg https://x", ["?"]],
  ["curl -o out https://x/y", ["out"]],
  ["curl --output-dir dl -o $F https://x/a", ["?"]],
  // wget: the same for its flags; `-O -` writes to standard output.
  ["wget --qu https://x/a", ["a"]],
  ["wget --con https://x/a", ["a"]],
  ["wget --ti https://x/a", ["a"]],
  ["wget --inp list", [".~"]],
  ["wget -O - https://x/y", []],
  ["wget -O - -O out https://x/y", ["out"]],
  ["wget -o log -O - https://x/y", ["log"]],
  // split/csplit: --n is ambiguous (--number, --numeric-suffixes); csplit's options take their values.
  ["split --n in part", ["part"]],
  ["csplit --suffix-format -f in /x/", ["xx"]],
  ["csplit --digits -f in /x/", ["xx"]],
  // git config: the reading options and forms, the writing actions with one operand or none.
  ["git config -l a b", []],
  ["git config --list a b", []],
  ["git config --get a b", []],
  ["git config --get-all a b", []],
  ["git config --get-regexp a b", []],
  ["git config get a b", []],
  ["git config list a b", []],
  ["git config --add a", [".git/config"]],
  ["git config --replace-all a", [".git/config"]],
  ["git config --rename-section a", [".git/config"]],
  ["git config --unset a", [".git/config"]],
  ["git config --unset-all a", [".git/config"]],
  ["git config --remove-section a", [".git/config"]],
  ["git config set", [".git/config"]],
  ["git config unset", [".git/config"]],
  ["git config --file cfg a", []],
  ["git config a b --file", [".git/config"]],
  ["git $C config a b", []],
  ["git commit a b", []],
  ["git --no-pager commit a b", []],
  // install -d makes each operand.
  ["install -d a b", ["a", "b"]],
  // cp/mv/ln edges: -T without operands; --parents strips every leading slash.
  ["cp -T", []],
  ["cp -T a", []],
  ["cp --parents //a/b d", ["d", "d/a/b"]],
  // chmod: only a one-letter option can be a mode (`--go` is an unknown long option, not a mode).
  ["chmod --go 755 f", ["f"]],
  // tar's old form: words its letters take are never options (`tar cf -x src` creates the archive `-x`).
  ["tar cf -x src", ["-x"]],
  ["tar xf -c", [".~"]],
  // rsync/scp: what is remote, what is a tree's contents.
  ["rsync -- a $D", ["?", "?"]],
  ["rsync x :a", [":a", ":a/x"]],
  ["rsync x h:a/b", []],
  ["rsync x a/rsync://", ["a/rsync://", "a/rsync:/x"]],
  ["rsync -r a/ b c", ["c~"]],
  ["rsync -r a b/ c", ["c~"]],
  ["rsync -r -- $S b", ["b~"]],
  ["scp x h:a/b", []]
]

describe("ProgramWrites: each program's grammar, option by option", () => {
  for (const [command, written] of grammar) {
    it.effect(`${command} -> ${written.join(" ") || "nothing"}`, () =>
      Effect.gen(function* () {
        expect((yield* writes(command)).map(describeTarget)).toEqual(written)
      })
    )
  }
})

describe("ProgramWrites: targets known only at run time", () => {
  it.effect("an unknown target is neither a tree nor a glob, whatever the program's options", () =>
    Effect.gen(function* () {
      const unknown = { path: undefined, tree: false, glob: false }
      expect(yield* writes("rm -r $X")).toEqual([unknown])
      expect(yield* writes("cp -r -- a $D")).toEqual([unknown, unknown])
      expect(yield* writes("tar -x -C $D")).toEqual([unknown])
    })
  )

  it.effect("a path known when written carries its tree and glob marks", () =>
    Effect.gen(function* () {
      expect(yield* writes("rm -r src/*")).toEqual([{ path: "src/*", tree: true, glob: true }])
      expect(yield* writes("cp -t d a")).toEqual([{ path: "d/a", tree: false, glob: false }])
    })
  )
})

import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"
import { parsed } from "../../src/permissions/ShellCheck.js"
import { optionWrites, optionWritesOf } from "../../src/permissions/ShellWrites.js"
import { type Case, decisionOf, verdict } from "./support.js"

// ---------------------------------------------------------------------------------------------------------------
// The exact files a command writes through its own options (`?`: a target known only at run time)

const grammar: ReadonlyArray<readonly [command: string, written: ReadonlyArray<string>]> = [
  // git's --output, with its value attached or in the next word.
  ["git diff --output=x", ["x"]],
  ["git diff --output x", ["x"]],
  ["git diff --output=out.patch HEAD~1", ["out.patch"]],
  ["git diff --output out.patch HEAD~1", ["out.patch"]],
  ["git diff '--output=x'", ["x"]],
  // The prefixes git's parse-options takes, from `--o` on; nothing else that begins so.
  ["git diff --o=a --ou=b --out=c --outp=d --outpu=e --output=f", ["a", "b", "c", "d", "e", "f"]],
  ["git diff --out x", ["x"]],
  ["git diff --outputx=y", []],
  ["git diff --output-indicator-new=x", []],
  ["git diff --op=x", []],
  ["git diff -o x", []],
  // `--output x` takes the next word, whatever it is; `--output=x` takes none.
  ["git diff --output --output=y", ["--output=y"]],
  ["git diff --output=x --output=y", ["x", "y"]],
  ["git diff --output x y --output z", ["x", "z"]],
  ["git diff --output", []],
  // After `--` a word is a path, not an option.
  ["git diff -- --output=x", []],
  ["git diff HEAD -- --output x", []],
  ["git diff --output=a -- --output=b", ["a"]],
  // Where output goes anyway.
  ["git diff --output=/dev/null", []],
  ["git diff --output=/dev/stdout --output=/dev/stderr", []],
  ["git diff --output /dev/null", []],
  // Names built at run time.
  ["git diff --output=$F", ["?"]],
  ["git diff --output \"$F\"", ["?"]],
  ["git diff --output ~/.bashrc", ["?"]],
  ["git diff --output=~/.bashrc", ["~/.bashrc"]],
  ["git log $X", ["?"]],
  ["git show --stat $X", ["?"]],
  ["git $SUB --output=x", ["?", "x"]],
  ["git status $X", []],
  ["git commit -m \"$(date)\"", []],
  // Every subcommand that takes diff options.
  ["git log --output=a", ["a"]],
  ["git show --output=a", ["a"]],
  ["git format-patch --output=a", ["a"]],
  ["git stash show --output a", ["a"]],
  // Options before the subcommand: their values are not the subcommand.
  ["git -C diff status $X", []],
  ["git -c diff status $X", []],
  ["git --git-dir diff status $X", []],
  ["git --no-pager log $X", ["?"]],
  ["git --version", []],
  ["git -C $D", []],
  ["git --no-pager status $X", []],
  ["git -C a --output=x -C", ["?"]],
  // `-C dir` moves where a relative target lands; the last -C counts, an absolute one restarts.
  ["git -C sub diff --output=x", ["sub/x"]],
  ["git -C /abs diff --output=x", ["/abs/x"]],
  ["git -C a -C b diff --output=x", ["a/b/x"]],
  ["git -C a -C /b diff --output=x", ["/b/x"]],
  ["git -C a -C /b -C c diff --output=x", ["/b/c/x"]],
  ["git -C sub diff --output=/abs/x", ["/abs/x"]],
  ["git -C sub diff --output=$F", ["?"]],
  ["git -C $D diff --output=x", ["?", "?"]],
  ["git -C $D diff --output=/abs/x", ["?", "/abs/x"]],
  ["git -C $D -C b diff --output=x", ["?", "?"]],
  ["git -c x -C d diff --output=o", ["d/o"]],
  ["git --no-pager -C d diff --output=o", ["d/o"]],
  ["git -c core.x=y diff --output=o", ["o"]],
  // `-C` after the subcommand is diff's own option (copies), not a directory.
  ["git diff -C x --output=y", ["y"]],
  ["git -C d diff -C e --output=y", ["d/y"]],
  ["git -C", []],
  ["/usr/bin/git diff --output=x", ["x"]],
  ["sudo git diff --output=x", ["x"]],
  // find's writing predicates.
  ["find . -fprint out", ["out"]],
  ["find . -fprint0 a -fprintf b fmt -fls c", ["a", "b", "c"]],
  ["find . -name x -fprint", []],
  ["find . -fprint /dev/null", []],
  ["find . -fprint $F", ["?"]],
  ["find . -print -name out", []],
  // sort -o / --output, wherever among the operands (GNU getopt permutes), until `--`.
  ["sort -o out in", ["out"]],
  ["sort -oout in", ["out"]],
  ["sort -no out in", ["out"]],
  ["sort -ro out in", ["out"]],
  ["sort -nooo in", ["oo"]],
  ["sort in -o out", ["out"]],
  ["sort list -o x", ["x"]],
  ["sort foo bar", []],
  ["sort dict out", []],
  ["sort - -o x", ["x"]],
  ["sort $X -o out", ["out"]],
  ["sort -o", []],
  ["sort -o /dev/null in", []],
  ["sort -- -o x", []],
  ["sort in -- -o x", []],
  ["sort -o a -o b", ["a", "b"]],
  ["sort -oa -o b", ["a", "b"]],
  ["sort -o -o x", ["-o"]],
  ["sort --output=o in", ["o"]],
  ["sort --output o in", ["o"]],
  ["sort --out=o in", ["o"]],
  ["sort --o o in", ["o"]],
  ["sort --output=$F in", []],
  ["sort --reverse -o x", ["x"]],
  ["sort --outx=o in", []],
  // sort's options that take a value: the rest of the word, else the next word (which is then no option).
  ["sort -k 2 -o out in", ["out"]],
  ["sort -k -o x in", []],
  ["sort -t -o x in", []],
  ["sort -S -o x in", []],
  ["sort -T -o x in", []],
  ["sort -to in", []],
  ["sort -tx -o out in", ["out"]],
  ["sort -k2 -o out in", ["out"]],
  ["sort -nk -o x in", []],
  ["sort -S 10M -T /tmp -o out in", ["out"]],
  // Programs without such options, and several commands of a line.
  ["git diff a--output=b", []],
  ["git --output=x -C", ["?"]],
  ...["diff", "log", "show", "whatchanged", "diff-tree", "diff-index", "diff-files", "format-patch", "range-diff", "stash", "reflog"].map(
    (subcommand) => [`git ${subcommand} $X`, ["?"]] as const
  ),
  ...["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--attr-source", "--super-prefix"].map(
    (option) => [`git ${option} diff status $X`, []] as const
  ),
  ["ls --output=x", []],
  ["cat -o x", []],
  ["git diff --output=a; sort -o b; find . -fprint c", ["a", "b", "c"]],
  ["git diff --output=a | sort -o b", ["a", "b"]]
]

const describeWord = (word: ShellCommand.Word) => ShellCommand.literal(word) ?? "?"

describe("ShellWrites: the files a command writes through its options", () => {
  for (const [command, written] of grammar) {
    it.effect(`${command} -> ${written.join(" ") || "nothing"}`, () =>
      Effect.gen(function* () {
        const analysis = yield* ShellCommand.analyze(command)
        expect(ShellCommand.isAnalysed(analysis)).toBe(true)
        expect(optionWritesOf(analysis.commands).map(describeWord)).toEqual(written)
      })
    )
  }

  it("a command without a name (a bare assignment) writes nothing", () => {
    const command: ShellCommand.SimpleCommand = {
      source: "A=1",
      argv: [],
      name: undefined,
      fullArgv: [],
      wrappers: [],
      assignments: [{ name: "A", value: ShellCommand.wordOf("1") }],
      redirects: [],
      context: "top"
    }
    expect(optionWrites(command)).toEqual([])
  })

  it("an unknown target keeps the source it stands for", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const analysis = yield* ShellCommand.analyze("git diff --output=$OUT")
        expect(optionWritesOf(analysis.commands).map((word) => [word.source, word.value])).toEqual([["--output=$OUT", undefined]])
      })
    ))
})

// ---------------------------------------------------------------------------------------------------------------
// The decisions: an option's target is an edit of that file, checked as a redirection's is

const bash = (command: string, rest: Omit<Case, "name" | "tool" | "command">): Case => ({ name: command, tool: "Bash", command, ...rest })
const rules = (permissions: { readonly allow?: ReadonlyArray<string>; readonly deny?: ReadonlyArray<string>; readonly ask?: ReadonlyArray<string> }) => ({
  user: { permissions }
})
const bypass = "bypassPermissions" as const
const acceptEdits = "acceptEdits" as const
const allowGit = rules({ allow: ["Bash(git:*)", "Bash(sort:*)", "Bash(find:*)"] })

const decisions: ReadonlyArray<Case> = [
  // A protected target asks even in bypassPermissions; the same command writing elsewhere runs.
  bash("git diff --output=$H/.bashrc", { mode: bypass, expect: "ask" }),
  bash("git diff --output $H/.bashrc", { mode: bypass, expect: "ask" }),
  bash("git diff --output ~/.bashrc", { mode: bypass, expect: "ask" }),
  bash("git diff --output=~/.bashrc", { mode: bypass, expect: "ask" }),
  bash("git diff --out=$H/.ssh/authorized_keys", { mode: bypass, expect: "ask" }),
  bash("git diff --outp $H/.ssh/config", { mode: bypass, expect: "ask" }),
  bash("git log -p --output=.git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("git show --output .claude/settings.json", { mode: bypass, expect: "ask" }),
  bash("git -C .git diff --output=hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("git -C $H diff --output=.bashrc", { mode: bypass, expect: "ask" }),
  bash("git diff --output=$F", { mode: bypass, expect: "ask" }),
  bash("sort -o $H/.bashrc in", { mode: bypass, expect: "ask" }),
  bash("sort -o.git/hooks/pre-commit in", { mode: bypass, expect: "ask" }),
  bash("sort --output=$H/.ssh/x in", { mode: bypass, expect: "ask" }),
  bash("sort --output $H/.ssh/x in", { mode: bypass, expect: "ask" }),
  bash("sort --out=.git/config in", { mode: bypass, expect: "ask" }),
  bash("sort in -o .git/hooks/x", { mode: bypass, expect: "ask" }),
  bash("sort -nro $H/.profile in", { mode: bypass, expect: "ask" }),
  bash("find . -fprint .git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("find . -fls $H/.bashrc", { mode: bypass, expect: "ask" }),
  bash("ls && git diff --output=$H/.bashrc", { mode: bypass, expect: "ask" }),
  bash("git diff --output=out.patch", { mode: bypass, expect: "allow" }),
  bash("git diff --output=hooks/pre-commit", { mode: bypass, expect: "allow" }),
  bash("git -C sub diff --output=hooks/pre-commit", { mode: bypass, expect: "allow" }),
  bash("git diff --output=$R/elsewhere.patch", { mode: bypass, expect: "allow" }),
  bash("sort -o sorted.txt in", { mode: bypass, expect: "allow" }),
  // What is not an option's value is no write: after `--`, a value of another option, another program's option.
  bash("git diff -- --output=$H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("git diff --output-indicator-new=$H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("git diff -C $H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("sort -- -o $H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("sort -k -o $H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("sort -t -o $H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("ls --output=$H/.bashrc", { mode: bypass, expect: "allow" }),
  bash("git diff --output=/dev/null", { mode: bypass, expect: "allow" }),

  // acceptEdits with an allow rule for the command: a target inside the workspace runs, outside or protected asks.
  bash("git diff --output=out.patch", { mode: acceptEdits, settings: allowGit, expect: "allow" }),
  bash("git diff --output out.patch", { mode: acceptEdits, settings: allowGit, expect: "allow" }),
  bash("git diff --output=$R/out.patch", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("git diff --output ../out.patch", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("git diff --output=$H/.bashrc", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("git diff --output=.git/hooks/pre-commit", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("git -C sub diff --output=x", { mode: acceptEdits, settings: allowGit, expect: "allow" }),
  bash("git -C .. diff --output=x", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("git -C $R diff --output=x", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("git -C .git diff --output=config", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("sort -o sorted.txt in", { mode: acceptEdits, settings: allowGit, expect: "allow" }),
  bash("sort -o $R/sorted.txt in", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("sort --output=$H/.ssh/x in", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("sort -o .git/hooks/x in", { mode: acceptEdits, settings: allowGit, expect: "ask" }),
  bash("find . -fprint list.txt", { mode: acceptEdits, settings: allowGit, expect: "allow" }),
  bash("find . -fprint $R/list.txt", { mode: acceptEdits, settings: allowGit, expect: "ask" }),

  // Default mode: an allow rule for the command does not stand for the file it writes; /dev/null is no file.
  bash("git diff", { settings: allowGit, expect: "allow" }),
  bash("git diff --output=out.patch", { settings: allowGit, expect: "ask" }),
  bash("git diff --output=/dev/null", { settings: allowGit, expect: "allow" }),
  bash("git diff -- --output=out.patch", { settings: allowGit, expect: "allow" }),
  bash("sort -o out in", { settings: allowGit, expect: "ask" }),
  bash("sort -- -o out", { settings: allowGit, expect: "allow" }),
  bash("sort -o /dev/null in", { settings: allowGit, expect: "allow" }),

  // Deny and ask rules on Edit hold for an option's target, in every mode.
  bash("git diff --output=secrets/x", { mode: bypass, settings: rules({ allow: ["Bash(git:*)"], deny: ["Edit(./secrets/**)"] }), expect: "deny" }),
  bash("sort -o secrets/x in", { mode: acceptEdits, settings: rules({ allow: ["Bash(sort:*)"], deny: ["Edit(./secrets/**)"] }), expect: "deny" }),
  bash("git diff --output=notes/x", { mode: bypass, settings: rules({ ask: ["Edit(./notes/**)"] }), expect: "ask" }),
  bash("git diff --output=other/x", { mode: bypass, settings: rules({ deny: ["Edit(./secrets/**)"] }), expect: "allow" })
]

describe("Permissions.check: files written through options are edits of those files", () => {
  for (const test of decisions) {
    const label = `${test.command} [${[test.mode ?? "default", JSON.stringify(test.settings ?? {})].join(" ")}] -> ${test.expect}`
    it.effect(label, () =>
      Effect.gen(function* () {
        const decision = yield* decisionOf(test, parsed)
        expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(test.expect)
      })
    )
  }
})

import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ReadOnlyCommands from "../../src/permissions/ReadOnlyCommands.js"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"

/** A command's argv as the tests write it: literal words, `<source>` for a word known only at run time. */
const argvText = (argv: ReadonlyArray<ShellCommand.Word>) => argv.map((word) => ShellCommand.literal(word) ?? `<${word.source}>`).join(" ")

interface AnalysisCase {
  readonly command: string
  /** Every command run, wrappers seen through (argvText), in the analysis' order. */
  readonly runs?: ReadonlyArray<string>
  /** The kinds of unanalysable reasons; [] for an analysed line. */
  readonly unanalysable?: ReadonlyArray<ShellCommand.UnanalysableKind>
  readonly readOnly?: boolean
  /** Files written by redirections (their values). */
  readonly writes?: ReadonlyArray<string>
  readonly reads?: ReadonlyArray<string>
  /** Wrapper names of the first command. */
  readonly wrappers?: ReadonlyArray<string>
  /** Assignment names of the first command. */
  readonly assignments?: ReadonlyArray<string>
}

const analysisCases: ReadonlyArray<AnalysisCase> = [
  // Simple commands, lists, pipelines.
  { command: "ls -la", runs: ["ls -la"], unanalysable: [], readOnly: true },
  { command: "git status && npm test", runs: ["git status", "npm test"], unanalysable: [], readOnly: false },
  { command: "git status; rm -rf /", runs: ["git status", "rm -rf /"], readOnly: false },
  { command: "false || rm x", runs: ["false", "rm x"] },
  { command: "sleep 1 & rm x", runs: ["sleep 1", "rm x"] },
  { command: "cat a | grep b | wc -l", runs: ["cat a", "grep b", "wc -l"], readOnly: true },
  { command: "! grep -q x file", runs: ["grep -q x file"], readOnly: true },
  // Subshells, compound commands, functions.
  { command: "(cd /tmp && rm x)", runs: ["cd /tmp", "rm x"] },
  { command: "{ ls; rm x; }", runs: ["ls", "rm x"] },
  { command: "if true; then rm x; elif false; then touch y; else echo z; fi", runs: ["true", "rm x", "false", "touch y", "echo z"] },
  { command: "while read l; do rm \"$l\"; done < list", runs: ["read l", "rm <\"$l\">"], reads: ["list"] },
  { command: "for f in *.txt; do cat \"$f\"; done", runs: ["cat <\"$f\">"] },
  { command: "case $x in a) rm a;; b) ls;; esac", runs: ["rm a", "ls"] },
  { command: "f() { rm -rf x; }", runs: ["rm -rf x"], unanalysable: [] },
  { command: "f() { rm -rf x; }; f", unanalysable: ["FunctionCall"] },
  { command: "function g { ls; }; g", unanalysable: ["FunctionCall"] },
  { command: "alias ls='rm -rf x'; ls", unanalysable: ["FunctionCall"] },
  { command: "alias ll='ls -l'", unanalysable: [], readOnly: false },
  // Substitutions.
  { command: "echo $(rm x)", runs: ["rm x", "echo <$(rm x)>"], readOnly: false },
  { command: "echo `rm x`", runs: ["rm x", "echo <`rm x`>"] },
  { command: "echo \"a $(rm x) b\"", runs: ["rm x", "echo <\"a $(rm x) b\">"] },
  { command: "diff <(ls a) <(rm b)", runs: ["ls a", "rm b", "diff <<(ls a)> <<(rm b)>"] },
  { command: "tee >(rm x) < in", runs: ["rm x", "tee <>(rm x)>"] },
  { command: "x=$(rm y)", runs: ["rm y", ""], unanalysable: [] },
  { command: "echo $(echo $(rm deep))", runs: ["rm deep", "echo <$(rm deep)>", "echo <$(echo $(rm deep))>"] },
  { command: "ls > $(rm x)", runs: ["rm x", "ls"] },
  { command: "cat <<EOF\n$(rm x)\nEOF", runs: ["rm x", "cat"] },
  { command: "cat <<'EOF'\n$(rm x)\nEOF", runs: ["cat"], readOnly: true },
  // Redirections.
  { command: "echo hi > out.txt", writes: ["out.txt"], readOnly: false },
  { command: "echo hi >> log", writes: ["log"], readOnly: false },
  { command: "ls &> all.log", writes: ["all.log"] },
  { command: "ls 2>/dev/null", writes: [], readOnly: true },
  { command: "ls >/dev/null 2>&1", writes: [], readOnly: true },
  { command: "ls 2>&1 | head", writes: [], readOnly: true },
  { command: "ls >&2", writes: [], readOnly: true },
  { command: "cat < /etc/passwd", reads: ["/etc/passwd"], writes: [], readOnly: true },
  { command: "{ ls; } > out", writes: ["out"], readOnly: false },
  { command: "for i in 1; do echo; done > out", writes: ["out"], readOnly: false },
  { command: "ls > \"$HOME/x\"", writes: ["<\"$HOME/x\">"], readOnly: false },
  { command: "echo x >| clobber", writes: ["clobber"] },
  // Wrappers with their options.
  { command: "timeout -s KILL 5 rm x", runs: ["rm x"], wrappers: ["timeout"] },
  { command: "timeout --signal=KILL --kill-after 2 5s rm x", runs: ["rm x"], wrappers: ["timeout"] },
  { command: "sudo -u root -E rm x", runs: ["rm x"], wrappers: ["sudo"] },
  { command: "nice -n 10 ionice -c 3 rm x", runs: ["rm x"], wrappers: ["nice", "ionice"] },
  { command: "nohup rm x &", runs: ["rm x"], wrappers: ["nohup"] },
  { command: "env -i FOO=1 BAR=2 rm x", runs: ["rm x"], wrappers: ["env"], assignments: ["FOO", "BAR"] },
  { command: "env -u HOME -- rm x", runs: ["rm x"], wrappers: ["env"] },
  { command: "command rm x", runs: ["rm x"], wrappers: ["command"] },
  { command: "command -v rm", runs: ["command -v rm"], readOnly: true },
  { command: "exec rm x", runs: ["rm x"], wrappers: ["exec"] },
  { command: "setsid -f rm x", runs: ["rm x"] },
  { command: "stdbuf -oL -e 0 rm x", runs: ["rm x"] },
  { command: "time rm x", runs: ["rm x"] },
  { command: "chroot /srv rm x", runs: ["rm x"], wrappers: ["chroot"] },
  { command: "watch -x rm x", runs: ["rm x"] },
  { command: "watch rm x", unanalysable: ["ShellString"] },
  { command: "xargs rm", runs: ["rm <<xargs input>>"], readOnly: false },
  { command: "find . | xargs -0 -n 1 rm -f", runs: ["find .", "rm -f <<xargs input>>"] },
  { command: "xargs", runs: ["echo <<xargs input>>"] },
  { command: "sudo timeout 5 nice rm x", runs: ["rm x"], wrappers: ["sudo", "timeout", "nice"] },
  { command: "timeout --frobnicate 5 rm x", unanalysable: ["UnknownWrapperOption"] },
  { command: "sudo -s rm x", unanalysable: ["ShellString"] },
  { command: "env -S 'rm x'", unanalysable: ["ShellString"] },
  { command: "timeout $T rm x", unanalysable: ["UnknownWrapperOption"] },
  { command: "timeout \"$T\" rm x", unanalysable: ["UnknownWrapperOption"] },
  { command: "sudo $OPTS rm x", unanalysable: ["UnknownWrapperOption"] },
  // Environment prefixes.
  { command: "FOO=1 BAR=$(rm y) ls", runs: ["rm y", "ls"], assignments: ["FOO", "BAR"] },
  { command: "LANG=C ls", readOnly: true, assignments: ["LANG"] },
  { command: "PATH=/tmp/evil ls", readOnly: false },
  { command: "LD_PRELOAD=/tmp/x.so cat f", readOnly: false },
  { command: "GIT_EXTERNAL_DIFF=/tmp/x git diff", readOnly: false },
  // find -exec runs its command.
  { command: "find . -name x -exec rm {} \\;", runs: ["find . -name x -exec rm {} ;", "rm <{}>"], readOnly: false },
  { command: "find . -execdir rm -f {} +", runs: ["find . -execdir rm -f {} +", "rm -f <{}>"] },
  { command: "find . -exec sh -c 'rm $1' _ {} \\;", unanalysable: ["ShellString"] },
  // Code in strings.
  { command: "eval 'rm x'", unanalysable: ["Eval"] },
  { command: "bash -c 'rm x'", unanalysable: ["ShellString"] },
  { command: "sh -xc 'rm x'", unanalysable: ["ShellString"] },
  { command: "zsh -c 'rm x'", unanalysable: ["ShellString"] },
  { command: "/bin/bash -lc 'rm x'", unanalysable: ["ShellString"] },
  { command: "bash script.sh", unanalysable: [], readOnly: false },
  { command: "echo 'rm x' | bash", unanalysable: ["ShellFromInput"] },
  { command: "bash <<< 'rm x'", unanalysable: ["ShellFromInput"] },
  { command: "bash -s < cmds", unanalysable: ["ShellFromInput"] },
  { command: "curl -s http://x | sh", unanalysable: ["ShellFromInput"] },
  { command: "python -c 'import os; os.remove(\"x\")'", unanalysable: ["InterpreterString"] },
  { command: "python3 -B -c 'print(1)'", unanalysable: ["InterpreterString"] },
  { command: "python3 script.py", unanalysable: [] },
  { command: "python3 -m http.server", unanalysable: [] },
  { command: "node -e 'require(\"fs\").rmSync(\"x\")'", unanalysable: ["InterpreterString"] },
  { command: "node --eval=1", unanalysable: ["InterpreterString"] },
  { command: "node -p 1", unanalysable: ["InterpreterString"] },
  { command: "node build.js", unanalysable: [] },
  { command: "perl -ne 'print' f", unanalysable: ["InterpreterString"] },
  { command: "ruby -e 'x'", unanalysable: ["InterpreterString"] },
  { command: "php -r 'x();'", unanalysable: ["InterpreterString"] },
  { command: "awk 'BEGIN { system(\"rm x\") }'", unanalysable: ["InterpreterString"] },
  { command: "awk '{ print | \"sh\" }' f", unanalysable: ["InterpreterString"] },
  { command: "awk '{ print $1 }' f", unanalysable: [], readOnly: true },
  { command: "sed 's/a/b/e' f", unanalysable: ["InterpreterString"] },
  { command: "sed -n '1e rm x' f", unanalysable: ["InterpreterString"] },
  { command: "source ./env.sh", unanalysable: ["Source"] },
  { command: ". ./env.sh", unanalysable: ["Source"] },
  { command: "trap 'rm x' EXIT", unanalysable: ["ShellString"] },
  { command: "xargs sh -c 'rm x'", unanalysable: ["ShellString"] },
  { command: "sudo bash -c 'rm x'", unanalysable: ["ShellString"] },
  // Names built at run time.
  { command: "$CMD x", unanalysable: ["DynamicCommandName"] },
  { command: "${CMD} x", unanalysable: ["DynamicCommandName"] },
  { command: "$(echo rm) x", unanalysable: ["DynamicCommandName"] },
  { command: "\"$X\"m x", unanalysable: ["DynamicCommandName"] },
  { command: "r* x", unanalysable: ["DynamicCommandName"] },
  { command: "/bin/r? x", unanalysable: ["DynamicCommandName"] },
  { command: "{rm,x} y", unanalysable: ["ParseError"] },
  { command: "{rm,-rf} y", unanalysable: ["ParseError"] },
  { command: "echo {rm,x} y", unanalysable: [] },
  { command: "~/bin/tool", unanalysable: ["DynamicCommandName"] },
  { command: "$\"rm\" x", unanalysable: ["DynamicCommandName"] },
  { command: "timeout 5 $CMD", unanalysable: ["DynamicCommandName"] },
  // Quoting tricks resolve to the command they run.
  { command: "'r''m' -rf x", runs: ["rm -rf x"], unanalysable: [] },
  { command: "\\rm x", runs: ["rm x"], unanalysable: [] },
  { command: "$'\\x72m' x", runs: ["rm x"], unanalysable: [] },
  { command: "$'\\162m' x", runs: ["rm x"], unanalysable: [] },
  { command: "$'\\u0072m' x", runs: ["rm x"], unanalysable: [] },
  { command: "r\"m\" x", runs: ["rm x"], unanalysable: [] },
  { command: "\"rm\" x", runs: ["rm x"] },
  { command: "r\\\nm x", unanalysable: ["Unsupported"] },
  { command: "ls -l\\\na", unanalysable: ["Unsupported"] },
  { command: "$'\\cA' x", unanalysable: ["DynamicCommandName"] },
  { command: "$'r\\x00m' x", unanalysable: ["DynamicCommandName"] },
  // Line continuations, heredocs, comments.
  { command: "ls \\\n  -la", runs: ["ls -la"], readOnly: true },
  { command: "ls # ; rm x", runs: ["ls"], readOnly: true },
  { command: "# rm x\nls", runs: ["ls"] },
  { command: "cat <<EOF > out\nhello\nEOF", runs: ["cat"], writes: ["out"] },
  { command: "cat <<EOF | sh\nrm x\nEOF", unanalysable: ["ShellFromInput"] },
  // Unicode lookalikes and invisible characters.
  { command: "rｍ x", unanalysable: ["HiddenCharacters"] },
  { command: "ls\u200b x", unanalysable: ["HiddenCharacters"] },
  { command: "echo \u202eabc", unanalysable: ["HiddenCharacters"] },
  // What does not parse.
  { command: "echo \"unterminated", unanalysable: ["ParseError"] },
  { command: "ls )", unanalysable: ["ParseError"] },
  { command: "if true; then ls", unanalysable: ["ParseError"] },
  { command: "x".repeat(70_000), unanalysable: ["TooLong"] },
  { command: "echo " + "$(".repeat(300) + "x" + ")".repeat(300), unanalysable: ["TooDeep", "DynamicCommandName"] },
  // Arithmetic that can run a subscript.
  { command: "echo $(( 'a[$(rm x)]' ))", unanalysable: ["ArithmeticSubscript"] },
  { command: "x='a[$(rm y)]'; echo $((x))", unanalysable: ["ArithmeticSubscript"] }
]

const analyze = (command: string) => ShellCommand.analyze(command)

describe("ShellCommand.analyze", () => {
  for (const testCase of analysisCases) {
    it.effect(JSON.stringify(testCase.command.length > 100 ? `${testCase.command.slice(0, 60)}...` : testCase.command), () =>
      Effect.gen(function* () {
        const analysis = yield* analyze(testCase.command)
        if (testCase.runs !== undefined) expect(analysis.commands.map((command) => argvText(command.argv))).toEqual(testCase.runs)
        if (testCase.unanalysable !== undefined) {
          expect([...new Set(analysis.unanalysable.map((reason) => reason.kind))].sort()).toEqual([...testCase.unanalysable].sort())
        }
        if (testCase.readOnly !== undefined) expect(ReadOnlyCommands.isReadOnly(analysis)).toBe(testCase.readOnly)
        if (testCase.writes !== undefined) expect(ShellCommand.writes(analysis).map((word) => ShellCommand.literal(word) ?? `<${word.source}>`)).toEqual(testCase.writes)
        if (testCase.reads !== undefined) expect(ShellCommand.reads(analysis).map((word) => ShellCommand.literal(word) ?? `<${word.source}>`)).toEqual(testCase.reads)
        if (testCase.wrappers !== undefined) expect(analysis.commands[0]?.wrappers.map((wrapper) => wrapper.name)).toEqual(testCase.wrappers)
        if (testCase.assignments !== undefined) {
          expect(analysis.commands.at(-1)?.assignments.map((assignment) => assignment.name)).toEqual(testCase.assignments)
        }
        // Unanalysable input is never read-only.
        if (analysis.unanalysable.length > 0) expect(ReadOnlyCommands.isReadOnly(analysis)).toBe(false)
      })
    )
  }
})

const rule = (specifier: string | undefined): ShellCommand.BashRule => {
  const parsed = ShellCommand.parseRule(specifier)
  if (parsed._tag === "Invalid") throw new Error(parsed.message)
  return parsed.rule
}

interface RuleCase {
  readonly command: string
  readonly allow?: ReadonlyArray<string>
  readonly ask?: ReadonlyArray<string>
  readonly deny?: ReadonlyArray<string>
  readonly expect: ShellCommand.RuleDecision["_tag"]
}

const ruleCases: ReadonlyArray<RuleCase> = [
  // Exact, prefix, wildcard.
  { command: "npm test", allow: ["npm test"], expect: "Allow" },
  { command: "npm test --watch", allow: ["npm test"], expect: "NoRule" },
  { command: "npm  test", allow: ["npm test"], expect: "Allow" },
  { command: "git status", allow: ["git:*"], expect: "Allow" },
  { command: "git", allow: ["git:*"], expect: "Allow" },
  { command: "gitx status", allow: ["git:*"], expect: "NoRule" },
  { command: "gitx status", deny: ["git:*"], expect: "NoRule" },
  { command: "npm run test -- --watch", allow: ["npm run test *"], expect: "Allow" },
  { command: "npm run test", allow: ["npm run test *"], expect: "Allow" },
  { command: "npm run testx", allow: ["npm run test *"], expect: "NoRule" },
  { command: "npm run testx", allow: ["npm run test*"], expect: "Allow" },
  { command: "ls -la", allow: ["ls*"], expect: "Allow" },
  { command: "lsof", allow: ["ls*"], expect: "Allow" },
  { command: "git commit -m 'fix: x'", allow: ["git commit -m *"], expect: "Allow" },
  { command: "git push origin main", allow: ["git * main"], expect: "Allow" },
  { command: "git push origin dev", allow: ["git * main"], expect: "NoRule" },
  { command: "echo 'a b'", allow: ["echo 'a b'"], expect: "Allow" },
  { command: "echo a b", allow: ["echo 'a b'"], expect: "NoRule" },
  // Every command must be allowed; any denied command denies.
  { command: "npm test && rm -rf /", allow: ["npm test"], expect: "NoRule" },
  { command: "npm test && rm -rf /", allow: ["npm test"], deny: ["rm:*"], expect: "Deny" },
  { command: "npm test; npm run lint", allow: ["npm test", "npm run lint"], expect: "Allow" },
  { command: "npm test | tee log", allow: ["npm test"], expect: "NoRule" },
  { command: "echo $(rm x)", allow: ["echo:*"], expect: "NoRule" },
  { command: "echo $(rm x)", allow: ["echo:*"], deny: ["rm:*"], expect: "Deny" },
  { command: "ls <(rm x)", deny: ["rm x"], allow: ["ls:*"], expect: "Deny" },
  { command: "ls <(rm x)", deny: ["rm"], allow: ["ls:*"], expect: "NoRule" },
  { command: "(cd x && rm y)", deny: ["rm:*"], expect: "Deny" },
  { command: "f() { rm y; }", deny: ["rm:*"], expect: "Deny" },
  { command: "if true; then rm y; fi", deny: ["rm:*"], expect: "Deny" },
  // Wrappers: deny sees through them, allow only through transparent ones.
  { command: "timeout -s KILL 5 rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "sudo rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "sudo rm x", deny: ["sudo:*"], expect: "Deny" },
  { command: "sudo -u root rm x", deny: ["sudo:*"], expect: "Deny" },
  { command: "nice -n 5 nohup rm x", deny: ["rm x"], expect: "Deny" },
  { command: "find . | xargs rm", deny: ["rm:*"], expect: "Deny" },
  { command: "find . -exec rm {} +", deny: ["rm:*"], expect: "Deny" },
  { command: "env FOO=1 rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "command rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "exec rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "timeout 60 npm test", allow: ["npm test"], expect: "Allow" },
  { command: "sudo npm test", allow: ["npm test"], expect: "NoRule" },
  { command: "sudo npm test", allow: ["sudo npm test"], expect: "Allow" },
  { command: "xargs npm test", allow: ["npm test"], expect: "NoRule" },
  { command: "xargs npm test", allow: ["npm test *"], expect: "Allow" },
  // Environment prefixes: deny ignores them, allow takes only inert ones.
  { command: "FOO=1 rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "LANG=C npm test", allow: ["npm test"], expect: "Allow" },
  { command: "PATH=/tmp npm test", allow: ["npm test"], expect: "NoRule" },
  { command: "NODE_OPTIONS=--require=/tmp/x.js npm test", allow: ["npm test"], expect: "NoRule" },
  { command: "x=1", allow: [], expect: "Allow" },
  { command: "PATH=/tmp/evil", allow: [], expect: "NoRule" },
  // Quoting tricks name the command they run.
  { command: "'r''m' -rf x", deny: ["rm:*"], expect: "Deny" },
  { command: "\\rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "$'\\x72m' x", deny: ["rm:*"], expect: "Deny" },
  { command: "r\"m\" x", deny: ["rm:*"], expect: "Deny" },
  { command: "/bin/rm x", deny: ["rm:*"], expect: "Deny" },
  { command: "/usr/bin/rm -rf /", deny: ["rm -rf /"], expect: "Deny" },
  { command: "./rm x", allow: ["rm:*"], expect: "NoRule" },
  // Words known at run time: a deny may match them, an allow does not.
  { command: "rm $TARGET", deny: ["rm -rf /"], expect: "Deny" },
  { command: "rm $FLAGS /", deny: ["rm -rf /"], expect: "Deny" },
  { command: "git $SUB", deny: ["git push:*"], expect: "Deny" },
  { command: "git $SUB", allow: ["git status"], expect: "NoRule" },
  { command: "git log $REF", allow: ["git log:*"], expect: "Allow" },
  { command: "rm *.txt", deny: ["rm -rf:*"], expect: "Deny" },
  { command: "rm -f x", deny: ["rm -rf:*"], expect: "NoRule" },
  // Unanalysable: asked, and denied where any deny rule names Bash.
  { command: "eval 'rm x'", expect: "Ask" },
  { command: "eval 'rm x'", allow: ["eval:*"], expect: "Ask" },
  { command: "eval 'rm x'", deny: ["curl:*"], expect: "Deny" },
  { command: "bash -c 'rm x'", deny: ["rm:*"], expect: "Deny" },
  { command: "sh -c 'rm x'", allow: ["sh:*"], expect: "Ask" },
  { command: "$'\\x72m' x", allow: ["*"], expect: "Allow" },
  { command: "$CMD x", allow: ["*"], expect: "Ask" },
  { command: "$CMD x", deny: ["rm:*"], expect: "Deny" },
  { command: "echo \"unterminated", allow: ["echo:*"], expect: "Ask" },
  { command: "python -c 'x'", allow: ["python:*"], deny: ["rm:*"], expect: "Deny" },
  // Ask rules.
  { command: "git push origin main", allow: ["git:*"], ask: ["git push:*"], expect: "Ask" },
  { command: "git status", allow: ["git:*"], ask: ["git push:*"], expect: "Allow" },
  { command: "git push", allow: ["git push"], ask: ["git push"], deny: ["git push"], expect: "Deny" },
  // The whole tool.
  { command: "ls", deny: [""], expect: "Deny" },
  { command: "ls", allow: ["*"], expect: "Allow" },
  { command: "ls && rm x", allow: [""], expect: "Allow" }
]

describe("ShellCommand.decide", () => {
  for (const testCase of ruleCases) {
    const label = `${JSON.stringify(testCase.command)} allow=${JSON.stringify(testCase.allow ?? [])} ask=${JSON.stringify(testCase.ask ?? [])} deny=${JSON.stringify(testCase.deny ?? [])}`
    it.effect(`${label} -> ${testCase.expect}`, () =>
      Effect.gen(function* () {
        const analysis = yield* analyze(testCase.command)
        const decision = ShellCommand.decide(analysis, {
          allow: (testCase.allow ?? []).map(rule),
          ask: (testCase.ask ?? []).map(rule),
          deny: (testCase.deny ?? []).map(rule)
        })
        expect(decision._tag).toBe(testCase.expect)
      })
    )
  }

  it("parses rules and refuses what does not parse", () => {
    expect(ShellCommand.parseRule("git:*")).toMatchObject({ _tag: "Rule", rule: { _tag: "Words", words: [{ _tag: "Literal", text: "git" }, { _tag: "Rest" }] } })
    expect(ShellCommand.parseRule(undefined)).toMatchObject({ _tag: "Rule", rule: { _tag: "Any" } })
    expect(ShellCommand.parseRule("*")).toMatchObject({ _tag: "Rule", rule: { _tag: "Any" } })
    expect(ShellCommand.parseRule("echo 'a")._tag).toBe("Invalid")
    expect(ShellCommand.parseRule("echo a\\")._tag).toBe("Invalid")
    expect(ShellCommand.parseRule("* rm")._tag).toBe("Invalid")
    expect(ShellCommand.parseRule("echo '*'")).toMatchObject({ _tag: "Rule", rule: { words: [{ _tag: "Literal", text: "echo" }, { _tag: "Literal", text: "*" }] } })
  })

  it.effect("a deny names the command and the rule; an unanalysable line's denial says why", () =>
    Effect.gen(function* () {
      const denied = ShellCommand.decide(yield* analyze("ls && sudo rm -rf x"), { allow: [], ask: [], deny: [rule("rm:*")] })
      expect(denied).toMatchObject({ _tag: "Deny", reason: "`sudo rm -rf x` is denied by the rule Bash(rm:*)." })
      const unanalysable = ShellCommand.decide(yield* analyze("bash -c 'rm x'"), { allow: [], ask: [], deny: [rule("curl:*")] })
      expect(unanalysable._tag === "Deny" && unanalysable.reason).toContain("runs a string of shell code")
      expect(unanalysable._tag === "Deny" && unanalysable.reason).toContain("Bash(curl:*)")
    })
  )

  it.effect("an allow reports the files redirections write, for the caller to check as edits", () =>
    Effect.gen(function* () {
      const decision = ShellCommand.decide(yield* analyze("npm test > out.log 2>&1"), { allow: [rule("npm test")], ask: [], deny: [] })
      expect(decision._tag === "Allow" && decision.writes.map((word) => word.value)).toEqual(["out.log"])
    })
  )
})

// Read-only or not: [command, read-only?, paths read (when read-only)].
const readOnlyCases: ReadonlyArray<readonly [string, boolean, ReadonlyArray<string>?]> = [
  ["ls", true, []],
  ["ls -la src", true, ["src"]],
  ["ls --color=auto -R", true, []],
  ["ls --format=long", true, []],
  ["ls --for=long", false],
  ["cat a b", true, ["a", "b"]],
  ["cat -n a", true, ["a"]],
  ["head -n 5 a", true, ["a"]],
  ["head -20 a", true, ["a"]],
  // Obsolete numeric options and other short forms as people type them.
  ["head -1 a", true, ["a"]],
  ["tail -5 a", true, ["a"]],
  ["tail -n +5 a", true, ["a"]],
  ["head -n1 a", true, ["a"]],
  ["tail -20f log", true, ["log"]],
  ["grep -3 foo a", true, ["a"]],
  ["grep -A3 -B 2 foo a", true, ["a"]],
  ["cut -d: -f1 a", true, ["a"]],
  ["cut -c1-10 a", true, ["a"]],
  ["cut -f2 a", true, ["a"]],
  ["nl -ba a", true, ["a"]],
  ["uniq -f 1 a", true, ["a"]],
  ["uniq -s 2 -c a", true, ["a"]],
  ["tac -s , a", true, ["a"]],
  ["du -t 1M .", true, ["."]],
  ["df -t ext4", true, []],
  ["base64 -w 0 a", true, ["a"]],
  ["rg -uu foo", true, []],
  ["rg -uuu foo src", true, ["src"]],
  ["git log -n5", true, []],
  ["git log -n 5 --oneline", true, []],
  // An unquoted glob in a long option's value expands only to words that are that option.
  ["grep -rn foo --include=*.ts .", true, ["."]],
  ["grep -r foo --exclude-dir=node_* .", true, ["."]],
  ["rg --glob=*.ts foo", true, []],
  ["grep -r foo --exclude-from=*.txt .", true, [".", "."]],
  ["rg --pre=* foo", false],
  ["sort --compress-program=* a", false],
  ["grep --inc*=x foo a", false],
  ["tail -f log", true, ["log"]],
  ["tail --follow=name log", true, ["log"]],
  ["wc -l a", true, ["a"]],
  ["wc --files0-from=list", false],
  ["pwd", true, []],
  ["echo $HOME $(date)", true, []],
  ["printf '%s\\n' a", true, []],
  ["grep -rn foo src", true, ["src"]],
  ["grep -e foo -e bar a", true, ["a"]],
  ["grep -f patterns a", true, ["patterns", "a"]],
  ["grep --exclude-dir=node_modules -r x .", true, ["."]],
  ["rg -n foo src", true, ["src"]],
  ["rg --pre cat foo", false],
  ["rg --pre=cat foo", false],
  ["rg -z foo", false],
  ["rg --search-zip foo", false],
  ["rg --hostname-bin=x foo", false],
  ["rg --type ts foo", true, []],
  ["find . -name '*.ts' -type f", true, ["."]],
  ["find src -newer package.json", true, ["src", "package.json"]],
  ["find . -exec rm {} \\;", false],
  ["find . -execdir ls \\;", false],
  ["find . -ok rm {} \\;", false],
  ["find . -delete", false],
  ["find . -fprint out", false],
  ["find . -fls out", false],
  ["find / -name x", true, ["/"]],
  ["find", true, ["."]],
  ["sed -n 1,10p a", true, ["a"]],
  ["sed 's/a/b/g' a", true, ["a"]],
  ["sed -e 's/a/b/' -e '/x/d' a", true, ["a"]],
  ["sed -i 's/a/b/' a", false],
  ["sed -i.bak 's/a/b/' a", false],
  ["sed --in-place 's/a/b/' a", false],
  ["sed 's/a/b/w out' a", false],
  ["sed 'w out' a", false],
  ["sed 'W out' a", false],
  ["sed '1r /etc/passwd' a", false],
  ["sed -f script.sed a", false],
  ["sed $SCRIPT a", false],
  ["sort a", true, ["a"]],
  ["sort -rn -k2 a", true, ["a"]],
  ["sort -o out a", false],
  ["sort --output=out a", false],
  ["sort --compress-program=gzip a", false],
  ["sort --files0-from=list", false],
  ["uniq a", true, ["a"]],
  ["uniq a out", false],
  ["diff -u a b", true, ["a", "b"]],
  ["diff --to-file=b a", true, ["b", "a"]],
  ["file a", true, ["a"]],
  ["file -C -m magic", false],
  ["stat -c %s a", true, ["a"]],
  ["du -sh .", true, ["."]],
  ["df -h", true, []],
  ["which node", true, []],
  ["type ls", true, []],
  ["command -v git", true, []],
  ["date +%s", true, []],
  ["date -s '2020-01-01'", false],
  ["date 0101000020", false],
  ["hostname", true, []],
  ["hostname evil", false],
  ["uname -a", true, []],
  ["xxd a", true, ["a"]],
  ["xxd -r dump out", false],
  ["jq .name package.json", true, ["package.json"]],
  ["tree -L 2", true, []],
  ["tree -o out", false],
  ["awk '{print $1}' a", true, ["a"]],
  ["awk '{print > \"out\"}' a", false],
  ["awk -f prog.awk a", false],
  ["cd src", true, ["src"]],
  ["cd", false],
  ["cd -", false],
  ["cd ~", false],
  ["cat ~/.ssh/id_rsa", false],
  ["cat $FILE", false],
  ["cat *.ts", true, ["."]],
  ["cat src/*.ts", true, ["src"]],
  ["cat .*", false],
  ["cat src/.*/x", false],
  // A `..` after a pattern climbs out of whatever the pattern matched.
  ["cat */../../etc/passwd", false],
  ["cat src/*/../../../etc/passwd", false],
  ["ls a*/..", false],
  ["cat @(..)/x", false],
  ["cat src/*/./a", true, ["src"]],
  ["cat {a,b}", false],
  ["cat -- -n", true, ["-n"]],
  ["cat *", true, ["."]],
  ["sort *", false],
  ["rg foo *", false],
  ["sort -- *", true, ["."]],
  ["ls -- *", true, ["."]],
  // git.
  ["git status", true, []],
  ["git status -sb", true, []],
  ["git diff", true, []],
  ["git diff --stat HEAD~1 -- src", true, []],
  ["git diff --cached --name-only", true, []],
  ["git diff --output=x", false],
  ["git diff --out=x", false],
  ["git diff --ext-diff", false],
  ["git diff --textconv", false],
  ["git diff --no-index /etc/passwd a", false],
  ["git log --oneline -n 10", true, []],
  ["git log -5 --format='%h %s'", true, []],
  ["git log --show-signature", false],
  ["git show HEAD:src/a.ts", true, []],
  ["git show --stat", true, []],
  ["git branch", true, []],
  ["git branch -a -v", true, []],
  ["git branch --list 'feat/*'", true, []],
  ["git branch new-feature", false],
  ["git branch -D old", false],
  ["git branch -m a b", false],
  ["git tag", true, []],
  ["git tag v1.0", false],
  ["git rev-parse --show-toplevel", true, []],
  ["git rev-parse --abbrev-ref HEAD", true, []],
  ["git ls-files", true, []],
  ["git blame -L 1,10 a", true, []],
  ["git remote -v", true, []],
  ["git remote add x y", false],
  ["git stash list", true, []],
  ["git stash", false],
  ["git stash pop", false],
  ["git config --get user.name", true, []],
  ["git config user.name x", false],
  ["git config --list", true, []],
  ["git -c core.pager=evil log", false],
  ["git -c alias.x=!rm x", false],
  ["git --config-env=core.pager=X log", false],
  ["git --exec-path=/tmp log", false],
  ["git -C sub status", true, ["sub"]],
  ["git -C /elsewhere status", true, ["/elsewhere"]],
  ["git --no-pager log", true, []],
  ["git ls-remote --upload-pack=evil origin", false],
  ["git fetch --upload-pack=evil", false],
  ["git fetch", false],
  ["git push", false],
  ["git commit -m x", false],
  ["git checkout main", false],
  ["git $SUB", false],
  ["git grep foo", true, []],
  ["git grep --no-index foo", false],
  // Wrappers, assignments, redirections and substitutions.
  ["timeout 5 cat a", true, ["a"]],
  ["nice -n 5 ls", true, []],
  ["time git status", true, []],
  ["time -o out ls", false],
  ["env ls", true, []],
  ["env PATH=/x ls", false],
  ["env -S 'ls' ", false],
  ["sudo ls", false],
  ["xargs cat", false],
  ["ls | xargs -0 cat", false],
  ["watch ls", false],
  ["exec cat a", false],
  ["LC_ALL=C sort a", true, ["a"]],
  ["DEBUG=1 ls", true, []],
  ["PATH=. ls", false],
  ["GIT_DIR=/elsewhere git log", false],
  ["x=1; echo $x", true, []],
  ["IFS=/ ; echo $x", false],
  ["ls > out", false],
  ["ls 2> err", false],
  ["ls 2>/dev/null", true, []],
  ["ls >/dev/stderr", true, []],
  ["cat < a", true, ["a"]],
  ["cat < ~/.netrc", false],
  ["echo $(rm x)", false],
  ["echo $(git status)", true, []],
  ["cat <(ls)", true, []],
  ["tee out", false],
  ["npm test", false],
  ["rm x", false],
  ["touch x", false],
  ["mkdir x", false],
  ["less a", false],
  ["man ls", false],
  ["/bin/cat a", false],
  ["bash -c ls", false],
  ["eval ls", false]
]

describe("ReadOnlyCommands.readOnly", () => {
  for (const [command, readOnly, paths] of readOnlyCases) {
    it.effect(`${JSON.stringify(command)} is ${readOnly ? "" : "not "}read-only`, () =>
      Effect.gen(function* () {
        const verdict = ReadOnlyCommands.readOnly(yield* analyze(command))
        expect(verdict._tag, verdict._tag === "NotReadOnly" ? verdict.reason : "").toBe(readOnly ? "ReadOnly" : "NotReadOnly")
        if (paths !== undefined && verdict._tag === "ReadOnly") expect(verdict.paths.map((path) => path.path)).toEqual(paths)
      })
    )
  }

  it("names the commands it knows", () => {
    expect(ReadOnlyCommands.readOnlyCommandNames).toEqual(expect.arrayContaining(["ls", "cat", "git", "find", "rg", "grep", "sed", "head", "tail", "wc", "sort"]))
    expect(ReadOnlyCommands.readOnlyCommandNames).not.toContain("rm")
  })
})

describe("ShellCommand on large input", () => {
  it.effect("a line of tens of thousands of words matches rules without exhausting the stack", () =>
    Effect.gen(function* () {
      const analysis = yield* analyze(`rm ${"$x ".repeat(20_000)}`)
      const decision = ShellCommand.decide(analysis, { allow: [rule("rm *")], ask: [], deny: [rule("rm -rf /")] })
      expect(decision._tag).toBe("Deny")
    })
  )

  it.effect("unanalysable reasons are capped, whatever the number of commands", () =>
    Effect.gen(function* () {
      const analysis = yield* analyze(Array.from({ length: 50 }, (_, index) => `$c${index}`).join("; "))
      // Each `$cN` is its own reason (the message names it): 50 of them, kept to the first 8.
      expect(analysis.unanalysable).toHaveLength(8)
    })
  )

  it.effect("input nested thousands deep is refused, not followed", () =>
    Effect.gen(function* () {
      const analysis = yield* analyze(`${"(".repeat(5000)}ls${")".repeat(5000)}`)
      expect(analysis.unanalysable.map((reason) => reason.kind)).toContain("TooDeep")
    })
  )
})

/**
 * The syntax walk (ShellSyntax) pinned by what it yields for a line: the commands and their argv, their context,
 * wrappers and assignments, the redirections and the kinds of reasons a line is unanalysable; and, for lines that
 * once escaped a rule, the permission decision.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { literal, type Analysis, type Redirect, type Word } from "../../src/permissions/ShellCommand.js"
import { ansiC, loadParser } from "../../src/permissions/ShellSyntax.js"
import { type Case, decisionOf, verdict } from "./support.js"

let analyse: (source: string) => Analysis

beforeAll(async () => {
  analyse = await loadParser()
})

/** A word as the tests write it: its literal value, `<source>` for a word known only at run time. */
const text = (word: Word) => literal(word) ?? `<${word.source}>`
/** Every command run, wrappers seen through. */
const runs = (line: string) => analyse(line).commands.map((command) => command.argv.map(text).join(" "))
/** Every command as written, wrappers included. */
const full = (line: string) => analyse(line).commands.map((command) => command.fullArgv.map(text).join(" "))
const contexts = (line: string) => analyse(line).commands.map((command) => command.context)
/** The kinds of reasons the line is unanalysable (each reason must explain itself: a blank one tells nobody why). */
const kinds = (line: string) => {
  const reasons = analyse(line).unanalysable
  for (const reason of reasons) expect(reason.message.trim(), reason.kind).not.toBe("")
  return [...new Set(reasons.map((reason) => reason.kind))].sort()
}
const redirectText = (redirect: Redirect) =>
  `${redirect.kind} ${redirect.operator} ${redirect.fd ?? "-"} ${redirect.target === undefined ? "-" : text(redirect.target)}`
const redirects = (line: string) => analyse(line).redirects.map(redirectText)
/** The flags and value of the first command's argv[index]. */
const wordAt = (line: string, index: number) => {
  const word = analyse(line).commands[0]?.argv[index]
  return word === undefined ? undefined : { value: word.value, glob: word.glob, brace: word.brace, tilde: word.tilde }
}
const value = (line: string, index: number) => analyse(line).commands[0]?.argv[index]?.value

describe("words after a redirection are arguments", () => {
  it("keeps the words after a here-document's delimiter", () => {
    expect(runs("sudo <<EOF rm -rf x\nhi\nEOF")).toEqual(["rm -rf x"])
    expect(full("sudo <<EOF rm -rf x\nhi\nEOF")).toEqual(["sudo rm -rf x"])
    expect(runs("sudo <<-EOF rm -rf x\n\thi\n\tEOF")).toEqual(["rm -rf x"])
    expect(kinds("sudo <<EOF rm -rf x\nhi\nEOF")).toEqual([])
  })

  it("keeps the words after a redirection that follows a here-document", () => {
    expect(runs("sudo <<EOF >/dev/null rm -rf x\nhi\nEOF")).toEqual(["rm -rf x"])
    expect(redirects("sudo <<EOF >/dev/null rm -rf x\nhi\nEOF")).toEqual(["input << - -", "discard > - /dev/null"])
  })

  it("keeps a here-document's arguments in order, with their substitutions run", () => {
    expect(runs("cat <<EOF $(rm x) 'a b' c\nhi\nEOF")).toEqual(["rm x", "cat <$(rm x)> a b c"])
  })

  it("reads every word after `>&-` as an argument: it takes no target", () => {
    expect(runs("ls >&- -la")).toEqual(["ls -la"])
    expect(redirects("ls >&- -la")).toEqual(["duplicate >&- - -"])
    expect(runs("ls 2>/dev/null >&- -l")).toEqual(["ls -l"])
    expect(runs("ls <&- -l")).toEqual(["ls -l"])
    expect(redirects("ls <&- -l")).toEqual(["duplicate <&- - -"])
  })

  it("reads `{fd}>file` as a redirection, not as an argument", () => {
    expect(runs("sudo {fd}>/dev/null rm -rf x")).toEqual(["rm -rf x"])
    expect(runs("echo {fd}>/dev/null hi")).toEqual(["echo hi"])
    expect(runs("exec {fd}<in cat")).toEqual(["cat"])
    expect(runs("sudo {fd}>&- rm")).toEqual(["rm"])
    // Not adjacent, quoted, or not a name: a word.
    expect(runs("echo {fd} >/dev/null")).toEqual(["echo {fd}"])
    expect(runs("echo '{fd}'>/dev/null")).toEqual(["echo {fd}"])
    expect(runs("echo {a.b}>/dev/null w")).toEqual(["echo {a.b} w"])
    expect(runs("echo {1a}>/dev/null w")).toEqual(["echo {1a} w"])
    expect(runs("echo x{fd}>/dev/null w")).toEqual(["echo x{fd} w"])
    expect(runs("echo {fd}x>/dev/null w")).toEqual(["echo {fd}x w"])
    expect(runs("echo {fd}|cat")).toEqual(["echo {fd}", "cat"])
  })

  it("keeps the words after every kind of file redirection", () => {
    expect(runs("sudo 2>/dev/null rm -rf x")).toEqual(["rm -rf x"])
    expect(runs("sudo >&2 rm -rf x")).toEqual(["rm -rf x"])
    expect(runs("sudo &>>log rm -rf x")).toEqual(["rm -rf x"])
    expect(runs("sudo 2>f rm -rf x >g")).toEqual(["rm -rf x"])
    expect(runs("rm -- >f -rf")).toEqual(["rm -- -rf"])
  })

  const bash = (command: string, rest: Omit<Case, "name" | "tool" | "command">): Case => ({ name: command, tool: "Bash", command, ...rest })
  const denyRm = { user: { permissions: { deny: ["Bash(rm:*)"] } } }
  const escapes: ReadonlyArray<Case> = [
    bash("sudo <<EOF rm -rf x\nhi\nEOF", { settings: denyRm, mode: "bypassPermissions", expect: "deny" }),
    bash("sudo <<EOF >/dev/null rm -rf x\nhi\nEOF", { settings: denyRm, mode: "bypassPermissions", expect: "deny" }),
    bash("sudo {fd}>/dev/null rm -rf x", { settings: denyRm, mode: "bypassPermissions", expect: "deny" }),
    bash("sudo {fd}>&- rm x", { settings: denyRm, mode: "bypassPermissions", expect: "deny" }),
    bash("cat <<EOF x\nhi\nEOF", { expect: "allow" }),
    bash("cat <<EOF\n`rm -rf x`\nEOF", { settings: denyRm, mode: "bypassPermissions", expect: "deny" }),
    bash("cat <<EOF\n`touch x`\nEOF", { expect: "ask" }),
    bash("cat <<'EOF'\n`touch x`\nEOF", { expect: "allow" })
  ]
  for (const test of escapes) {
    it.effect(`${JSON.stringify(test.command)} is ${test.expect}`, () =>
      Effect.gen(function* () {
        expect(verdict(yield* decisionOf(test))).toBe(test.expect)
      })
    )
  }
})

describe("commands and contexts", () => {
  it("walks lists, pipelines and compound commands in source order", () => {
    expect(runs("a && b || c; d | e & f")).toEqual(["a", "b", "c", "d", "e", "f"])
    expect(runs("while a; do b; done; until c; do d; done")).toEqual(["a", "b", "c", "d"])
    expect(runs("case x in y) a;; esac")).toEqual(["a"])
    expect(runs("! a")).toEqual(["a"])
  })

  it("marks substitutions, function bodies and nested commands", () => {
    expect(contexts("echo $(a) `b` <(c) >(d)")).toEqual(["substitution", "substitution", "substitution", "substitution", "top"])
    expect(contexts("f() { a; }")).toEqual(["function"])
    expect(contexts("find . -exec rm {} \\;")).toEqual(["top", "nested"])
    expect(analyse("find . -exec rm {} \\;").commands[1]?.wrappers.map((wrapper) => [wrapper.name, wrapper.transparent])).toEqual([["find", true]])
    expect(contexts("(a)")).toEqual(["top"])
    const nested = analyse("sudo find . -exec rm {} \\;").commands[1]
    expect(nested?.wrappers.map((wrapper) => [wrapper.name, wrapper.transparent])).toEqual([
      ["sudo", false],
      ["find", true]
    ])
    expect(nested?.wrappers[1]?.argv.map(text)).toEqual([".", "-exec"])
  })

  it("walks a function's body and its redirections", () => {
    expect(runs("f() { rm x; } > out")).toEqual(["rm x"])
    expect(redirects("f() { rm x; } > out")).toEqual(["write > - out"])
    expect(runs("function g { ls; }")).toEqual(["ls"])
    expect(kinds("f() { :; }; f")).toEqual(["FunctionCall"])
    expect(kinds("f() { :; }; g")).toEqual([])
  })

  it("walks the redirections of a substitution", () => {
    expect(redirects("echo $(<secret)")).toEqual(["read < - secret"])
    expect(redirects("echo $(cat >out)")).toEqual(["write > - out"])
    expect(contexts("echo $(cat >$(a))")).toEqual(["substitution", "substitution", "top"])
  })

  it("finds commands in every part of a word", () => {
    expect(runs("echo ${x:-$(a)}")).toEqual(["a", "echo <${x:-$(a)}>"])
    expect(runs("echo \"x$((1+$(a)))\"")).toEqual(["a", "echo <\"x$((1+$(a)))\">"])
    expect(runs("echo x$(a)y")).toEqual(["a", "echo <x$(a)y>"])
    expect(runs("$(a) x")).toEqual(["a", "<$(a)> x"])
    expect(runs("echo $((1 + $(a)))")).toEqual(["a", "echo <$((1 + $(a)))>"])
    expect(runs("cat <<EOF\n${x:-$(a)}\nEOF")).toEqual(["a", "cat"])
    expect(runs("cat <<< $(a)")).toEqual(["a", "cat"])
    expect(runs("ls > $(a)")).toEqual(["a", "ls"])
    expect(runs("[[ -f $(a) ]]")).toEqual(["a"])
    expect(runs("echo a # $(b)")).toEqual(["echo a"])
  })

  it("walks arrays and subscripts in assignments", () => {
    expect(runs("a=( $(b) c )")).toEqual(["b", ""])
    expect(runs("A=(1 2) ls")).toEqual(["ls"])
    expect(runs("a[$(b)]=1 ls")).toEqual(["b", "ls"])
  })

  it("records a bare assignment as a command without argv", () => {
    const analysis = analyse("A=1 B=$(a) C=")
    expect(analysis.commands.map((command) => [command.argv.length, command.name, command.context])).toEqual([
      [1, "a", "substitution"],
      [0, undefined, "top"]
    ])
    expect(analysis.commands[1]?.assignments.map((assignment) => [assignment.name, text(assignment.value)])).toEqual([
      ["A", "1"],
      ["B", "<$(a)>"],
      ["C", ""]
    ])
    expect(runs("a[$(b)]=1")).toEqual(["b", ""])
    expect(analyse("x=1").commands[0]?.assignments.map((assignment) => [assignment.name, text(assignment.value)])).toEqual([["x", "1"]])
  })

  it("reads declarations as commands, their values' substitutions run", () => {
    expect(runs("export A=$(rm x) B")).toEqual(["rm x", "export <A=$(rm x)> B"])
    expect(runs("local a b # c")).toEqual(["local a b"])
    expect(runs("unset -f a")).toEqual(["unset -f a"])
    expect(runs("declare -r x")).toEqual(["declare -r x"])
  })

  it("keeps prefix assignments and redirections on the command", () => {
    const command = analyse("A=1 B=$(a) ls >out 2>&1").commands[1]
    expect(command?.assignments.map((assignment) => assignment.name)).toEqual(["A", "B"])
    expect(command?.redirects.map(redirectText)).toEqual(["write > - out", "duplicate >& 2 1"])
    expect(analyse("{ ls; } >out").commands[0]?.redirects).toEqual([])
    expect(redirects("> out")).toEqual(["write > - out"])
    expect(runs("> out")).toEqual([])
  })

  it("refuses words after a compound command's redirection", () => {
    expect(kinds("{ ls; } >/dev/null rm x")).toEqual(["ParseError"])
    expect(kinds("{ ls; } >/dev/null")).toEqual([])
  })

  it("sees through up to 16 wrappers", () => {
    expect(runs(`${"nohup ".repeat(16)}rm x`)).toEqual(["rm x"])
    expect(runs(`${"nohup ".repeat(17)}rm x`)).toEqual(["nohup rm x"])
    const command = analyse("sudo -u root env A=1 rm x").commands[0]
    expect(command?.wrappers.map((wrapper) => [wrapper.name, wrapper.transparent])).toEqual([
      ["sudo", false],
      ["env", true]
    ])
    expect(command?.wrappers[0]?.argv.map(text)).toEqual(["-u", "root"])
    expect(command?.assignments.map((assignment) => assignment.name)).toEqual(["A"])
    expect(analyse("B=2 env A=1 rm x").commands[0]?.assignments.map((assignment) => assignment.name)).toEqual(["B", "A"])
    expect(analyse("sudo rm x").commands[0]?.name).toBe("rm")
  })

  it("stops at a wrapper it cannot read", () => {
    expect(kinds("timeout --frobnicate 5 rm x")).toEqual(["UnknownWrapperOption"])
    expect(runs("timeout --frobnicate 5 rm x")).toEqual(["timeout --frobnicate 5 rm x"])
  })

  it("checks the name of what runs", () => {
    expect(kinds("'r m' x")).toEqual(["HiddenCharacters"])
    expect(kinds("'r~m' x")).toEqual([])
    expect(kinds("'!x' y")).toEqual([])
    expect(kinds("$'\\x7f' x")).toEqual(["HiddenCharacters"])
    expect(kinds("\"$X\" y")).toEqual(["DynamicCommandName"])
    expect(analyse("$X").commands[0]?.name).toBeUndefined()
    expect(kinds("sudo")).toEqual([])
    expect(kinds("sudo -u root")).toEqual([])
  })
})

describe("reasons", () => {
  it("flags every invisible or control character, and no ordinary one", () => {
    const hidden = ["\u0000", "\u0008", "\u000b", "\u000c", "\u000e", "\u001f", "\u007f", "\u00ad", "\u061c", "\u180e", "\u200b", "\u200f", "\u202a", "\u202e", "\u2060", "\u2064", "\u2066", "\u206f", "\ufeff", "\ufff9", "\ufffb"]
    for (const char of hidden) expect(kinds(`echo a${char}b`), JSON.stringify(char)).toContain("HiddenCharacters")
    for (const char of ["\t", "\r", " ", "é", "\u0009", "\u0020", "\u00ac", "\u00ae", "\u061b", "\u061d", "\u180d", "\u180f", "\u200a", "\u2010", "\u2029", "\u202f", "\u205f", "\u2065", "\u2070", "\ufefe", "\ufff8", "\ufffc"])
      expect(kinds(`echo 'a${char}b'`), JSON.stringify(char)).not.toContain("HiddenCharacters")
    expect(kinds("echo a\nb")).toEqual([])
  })

  it("gives a reason for each kind of line it cannot analyse", () => {
    const lines = [
      "echo a\u200bb",
      "ls )",
      "r\\\nm",
      "echo " + "$(".repeat(300) + "x" + ")".repeat(300),
      "f() { :; }; f",
      "alias a=b; a",
      "echo $(( 'a' ))",
      "echo 'a[$(b)]'",
      "[[ x -eq a[1] ]]",
      "{ ls; } >/dev/null x",
      "cat <<EOF\n`a`\nEOF",
      "$X",
      "'r m'",
      "timeout --frobnicate 5 rm x",
      "eval x"
    ]
    for (const line of lines) expect(kinds(line).length, line).toBeGreaterThan(0)
  })

  it("keeps at most 8 reasons, each once", () => {
    const line = Array.from({ length: 12 }, (_, index) => `$X${index}`).join("; ")
    expect(analyse(line).unanalysable).toHaveLength(8)
    expect(analyse("$X; $X; $X").unanalysable).toHaveLength(1)
    expect(analyse("$X; $Y").unanalysable).toHaveLength(2)
  })

  it("flags a line that does not parse", () => {
    expect(kinds("echo (")).toEqual(["ParseError"])
    expect(kinds("if true; then ls")).toEqual(["ParseError"])
    expect(kinds("ls ) && rm x")).toContain("ParseError")
  })

  it("flags a line continuation inside a word only", () => {
    expect(kinds("r\\\nm x")).toEqual(["Unsupported"])
    expect(kinds("echo a\\\n\\\nb")).toEqual(["Unsupported"])
    expect(kinds("ls \\\n  -la")).toEqual([])
    expect(kinds("ls\\\n -la")).toEqual([])
    expect(kinds("echo \"a\\\nb\"")).toEqual([])
    expect(runs("echo \"a\\\nb\"")).toEqual(["echo ab"])
    expect(kinds("echo a\\\\\nb")).toEqual([])
    expect(kinds("ls \\\n-la")).toEqual([])
    expect(kinds("echo a;\\\nls")).toEqual([])
    expect(kinds("ls\\\n; ls")).toEqual([])
    expect(kinds("")).toEqual([])
    expect(analyse("").commands).toEqual([])
  })

  it("flags a command nested too deep, once", () => {
    const deep = "echo " + "$(".repeat(300) + "x" + ")".repeat(300)
    expect(analyse(deep).unanalysable.filter((reason) => reason.kind === "TooDeep")).toHaveLength(1)
    expect(kinds("echo " + "$(".repeat(20) + "x" + ")".repeat(20))).toEqual(["DynamicCommandName"])
    expect(kinds("echo " + "${x:-".repeat(300) + "a" + "}".repeat(300))).toEqual(["TooDeep"])
    expect(kinds("echo " + "${x:-".repeat(20) + "a" + "}".repeat(20))).toEqual([])
  })

  it("flags functions and aliases defined and used in the line", () => {
    expect(kinds("alias ls='rm -rf x'; ls")).toEqual(["FunctionCall"])
    expect(kinds("alias a=b c=d; c")).toEqual(["FunctionCall"])
    expect(kinds("alias lsx=y; ls")).toEqual([])
    expect(kinds("alias ls; ls")).toEqual([])
    expect(kinds("alias -p; alias")).toEqual([])
    expect(kinds("echo ls=x; ls")).toEqual([])
    expect(kinds("alias x=$y; x")).toEqual([])
  })

  it("flags quoted text in arithmetic", () => {
    expect(kinds("echo $(( 'a[$(rm x)]' ))")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo $(( \"a\" ))")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo $(( `a` ))")).toContain("ArithmeticSubscript")
    expect(kinds("echo $(( 1 + 2 ))")).toEqual([])
    expect(kinds("for ((i=0;i<2;i++)); do :; done")).toEqual([])
    expect(kinds("(( x = 'a' ))")).toEqual(["ArithmeticSubscript"])
    expect(kinds("(( x = 1 ))")).toEqual([])
    expect(kinds("( echo 'a' )")).toEqual([])
    expect(kinds("{ echo 'a'; }")).toEqual([])
    expect(kinds("echo \"$(( 'a' ))\"")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo ${x:-$(( 'a[$(rm y)]' ))}")).toContain("ArithmeticSubscript")
  })

  it("flags a command in a subscript of static text", () => {
    expect(kinds("x='a[$(rm y)]'")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo 'a[$(rm y)]'")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo 'a[`rm y`]'")).toEqual(["ArithmeticSubscript"])
    expect(kinds("A='a[$(rm y)]' ls")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo 'a[x] $(y)'")).toEqual([])
    expect(kinds("echo 'a[x]'")).toEqual([])
    expect(kinds("echo '$(y)'")).toEqual([])
  })

  it("flags an arithmetic comparison holding a subscript", () => {
    expect(kinds("[[ x -eq 'a[$(rm y)]' ]]")).toEqual(["ArithmeticSubscript"])
    for (const operator of ["-ne", "-lt", "-le", "-gt", "-ge"]) expect(kinds(`[[ x ${operator} a[1] ]]`)).toEqual(["ArithmeticSubscript"])
    expect(kinds("[[ x == a[1] ]]")).toEqual([])
    expect(kinds("[[ x -eq 1 ]]")).toEqual([])
    expect(kinds("[[ x-eqa[1] ]]")).toEqual([])
    expect(kinds("test x -eq a[1]")).toEqual([])
  })
})

describe("redirections", () => {
  it("tells writes, reads, discards and duplicates apart", () => {
    expect(redirects("ls >a >>b &>c &>>d >|e 2>f")).toEqual(["write > - a", "write >> - b", "write &> - c", "write &>> - d", "write >| - e", "write > 2 f"])
    expect(redirects("cat <a 3<b")).toEqual(["read < - a", "read < 3 b"])
    expect(redirects("ls >/dev/null 2>/dev/stderr >/dev/stdout 2>/dev/fd/1 2>/dev/fd/2 >/dev/fd/3")).toEqual([
      "discard > - /dev/null",
      "discard > 2 /dev/stderr",
      "discard > - /dev/stdout",
      "discard > 2 /dev/fd/1",
      "discard > 2 /dev/fd/2",
      "write > - /dev/fd/3"
    ])
    expect(redirects("ls 2>&1 >&2 <&0 3>&- 4<&- 5>&6- >&-")).toEqual([
      "duplicate >& 2 1",
      "duplicate >& - 2",
      "duplicate <& - 0",
      "duplicate >&- 3 -",
      "duplicate <&- 4 -",
      "duplicate >& 5 6-",
      "duplicate >&- - -"
    ])
    expect(redirects("ls >&out <&in >&/dev/null >&12a")).toEqual(["write >& - out", "read <& - in", "discard >& - /dev/null", "write >& - 12a"])
    expect(redirects("ls >& -")).toEqual(["duplicate >& - -"])
    expect(redirects("ls >$f")).toEqual(["write > - <$f>"])
    expect(redirects("ls >&$f")).toEqual(["write >& - <$f>"])
  })

  it("records here-documents and here-strings as input", () => {
    expect(redirects("cat <<EOF\nhi\nEOF")).toEqual(["input << - -"])
    expect(redirects("cat 3<<-EOF\n\thi\n\tEOF")).toEqual(["input <<- 3 -"])
    expect(redirects("cat <<< hi")).toEqual(["input <<< - -"])
    expect(analyse("cat <<EOF\nhi\nEOF").redirects[0]?.source).toBe("<<EOF")
    expect(analyse("cat <<< hi").redirects[0]?.source).toBe("<<< hi")
    expect(analyse("ls 2>f").redirects[0]?.source).toBe("2>f")
    expect(analyse("cat <<EOF\nhi\nEOF").commands[0]?.redirects.map(redirectText)).toEqual(["input << - -"])
    expect(runs("cat <<EOF | sed 1d\nhi\nEOF")).toEqual(["sed 1d", "cat"])
    expect(runs("cat <<EOF && rm x\nhi\nEOF")).toEqual(["rm x", "cat"])
  })

  it("walks a here-document's body only where it expands", () => {
    expect(runs("cat <<EOF\n$(a)\nEOF")).toEqual(["a", "cat"])
    expect(runs("cat <<'EOF'\n$(a)\nEOF")).toEqual(["cat"])
  })

  it("refuses a backquote in a here-document that expands: the tree does not parse it", () => {
    expect(kinds("cat <<EOF\na `rm x`\nEOF")).toEqual(["Unsupported"])
    expect(kinds("cat <<-EOF\n\ta `rm x`\n\tEOF")).toEqual(["Unsupported"])
    expect(kinds("cat <<EOF >out\n`rm x`\nEOF")).toEqual(["Unsupported"])
    expect(kinds("cat <<'EOF'\na `rm x`\nEOF")).toEqual([])
    expect(kinds("cat <<\"EOF\"\na `rm x`\nEOF")).toEqual([])
    expect(kinds("cat <<\\EOF\na `rm x`\nEOF")).toEqual([])
    expect(kinds("cat <<EOF\na 'b' \"c\"\nEOF")).toEqual([])
    expect(kinds("cat <<EOF `a`\nb\nEOF")).toEqual([])
  })

  it("records the redirections of compound commands", () => {
    expect(redirects("while read l; do :; done < list")).toEqual(["read < - list"])
    expect(redirects("{ ls; } 2>&1 >out")).toEqual(["duplicate >& 2 1", "write > - out"])
    expect(redirects("(ls) <<EOF\nhi\nEOF")).toEqual(["input << - -"])
  })
})

describe("words", () => {
  it("resolves quoting and escapes", () => {
    expect(value("echo 'a b'", 1)).toBe("a b")
    expect(value("echo \"a\\$b\\\\c\\\"d\\e\\`f\"", 1)).toBe("a$b\\c\"d\\e`f")
    expect(value("echo a\\ b", 1)).toBe("a b")
    expect(value("echo 'a'\"b\"c\\d", 1)).toBe("abcd")
    expect(value("echo $'a\\tb'", 1)).toBe("a\tb")
    expect(value("echo 12", 1)).toBe("12")
    expect(value("echo \"$x\"", 1)).toBeUndefined()
    expect(value("echo \"a$x\"b", 1)).toBeUndefined()
    expect(value("echo $'\\cA'", 1)).toBeUndefined()
    expect(value("echo a[1]=b", 1)).toBe("a[1]=b")
    expect(value("echo ${#}", 1)).toBeUndefined()
    expect(value("echo $((1))", 1)).toBeUndefined()
    expect(value("echo ''", 1)).toBe("")
    expect(value("echo \"\"", 1)).toBe("")
  })

  it("marks unquoted globs, braces and tildes only", () => {
    const flags = (line: string) => {
      const word = wordAt(line, 1)
      return [word?.glob, word?.brace, word?.tilde]
    }
    expect(flags("echo *.txt")).toEqual([true, false, false])
    expect(flags("echo a?")).toEqual([true, false, false])
    expect(flags("echo [ab]")).toEqual([true, false, false])
    expect(flags("echo '*'")).toEqual([false, false, false])
    expect(flags("echo \\*")).toEqual([false, false, false])
    expect(flags("echo '[ab]'")).toEqual([false, false, false])
    expect(flags("echo a]b[")).toEqual([false, false, false])
    expect(flags("echo a(b)")).toEqual(flags("echo a(b)"))
    expect(flags("echo {a,b}")).toEqual([false, true, false])
    expect(flags("echo {1..3}")).toEqual([false, true, false])
    expect(flags("echo x{a,b}y")).toEqual([false, true, false])
    expect(flags("echo '{a,b}'")).toEqual([false, false, false])
    expect(flags("echo {a}")).toEqual([false, false, false])
    expect(flags("echo ~/x")).toEqual([false, false, true])
    expect(flags("echo '~'/x")).toEqual([false, false, false])
    expect(flags("echo a~")).toEqual([false, false, false])
    expect(flags("echo \\~")).toEqual([false, false, false])
    expect(flags("echo a")).toEqual([false, false, false])
    expect(wordAt("ls {a,b}", 1)?.value).toBe("{a,b}")
    expect(wordAt("ls ~/x", 1)?.value).toBe("~/x")
    expect(wordAt("ls $x", 1)).toEqual({ value: undefined, glob: false, brace: false, tilde: false })
  })

  it("reads a name built of quoted parts as the name", () => {
    expect(runs("'r''m' x")).toEqual(["rm x"])
    expect(runs("\\rm x")).toEqual(["rm x"])
    expect(runs("r\"m\" x")).toEqual(["rm x"])
    expect(analyse("/bin/rm x").commands[0]?.name).toBe("/bin/rm")
  })
})

describe("ansiC", () => {
  it("decodes the simple escapes", () => {
    expect(ansiC("\\a\\b\\e\\E\\f\\n\\r\\t\\v\\\\\\'\\\"\\?")).toBe("\u0007\b\u001b\u001b\f\n\r\t\v\\'\"?")
    expect(ansiC("plain")).toBe("plain")
    expect(ansiC("")).toBe("")
  })

  it("decodes octal escapes of up to three digits", () => {
    expect(ansiC("\\101")).toBe("A")
    expect(ansiC("\\1011")).toBe("A1")
    expect(ansiC("\\7")).toBe("\u0007")
    expect(ansiC("\\77x")).toBe("?x")
    expect(ansiC("\\177")).toBe("\u007f")
    expect(ansiC("\\0")).toBeUndefined()
    expect(ansiC("\\400")).toBeUndefined()
    expect(ansiC("\\200")).toBeUndefined()
    expect(ansiC("\\501")).toBe("A")
    expect(ansiC("\\18")).toBe("\u00018")
  })

  it("decodes hexadecimal and Unicode escapes", () => {
    expect(ansiC("\\x41")).toBe("A")
    expect(ansiC("\\x411")).toBe("A1")
    expect(ansiC("\\x4g")).toBe("\u0004g")
    expect(ansiC("\\xaB")).toBeUndefined()
    expect(ansiC("\\x7f")).toBe("\u007f")
    expect(ansiC("\\x80")).toBeUndefined()
    expect(ansiC("\\x")).toBeUndefined()
    expect(ansiC("\\xg")).toBeUndefined()
    expect(ansiC("\\x00")).toBeUndefined()
    expect(ansiC("\\u0041")).toBe("A")
    expect(ansiC("\\u00411")).toBe("A1")
    expect(ansiC("\\u00e9")).toBe("é")
    expect(ansiC("\\uFFfd")).toBe("\ufffd")
    expect(ansiC("\\u0")).toBeUndefined()
    expect(ansiC("\\u")).toBeUndefined()
    expect(ansiC("\\U0001F600")).toBe("😀")
    expect(ansiC("\\U0001F6001")).toBe("😀1")
    expect(ansiC("\\U0010FFFF")).toBe("\u{10ffff}")
    expect(ansiC("\\U00110000")).toBeUndefined()
    expect(ansiC("a\\x41b")).toBe("aAb")
  })

  it("refuses escapes it does not decode the same way every time", () => {
    expect(ansiC("\\cA")).toBeUndefined()
    expect(ansiC("\\q")).toBeUndefined()
    expect(ansiC("a\\")).toBeUndefined()
  })
})

describe("words, quoted and unquoted", () => {
  const word = (value: string | undefined, glob = false, brace = false, tilde = false) => ({ value, glob, brace, tilde })

  it("keeps a backslash inside single quotes", () => {
    expect(value("echo 'a\\$b'", 1)).toBe("a\\$b")
    expect(value("echo 'a\\\\b'", 1)).toBe("a\\\\b")
  })

  it("reads globs and tildes only in the unquoted characters, whatever the quoting", () => {
    expect(wordAt("echo \"a*\"", 1)).toEqual(word("a*"))
    expect(wordAt("echo $'b?'", 1)).toEqual(word("b?"))
    expect(wordAt("echo c*\\d", 1)).toEqual(word("c*d", true))
    expect(wordAt("echo 'a'~", 1)).toEqual(word("a~"))
    expect(wordAt("echo \"a\"~/x", 1)).toEqual(word("a~/x"))
  })

  it("reads brace lists with parts of any length, and ranges, as they are written", () => {
    expect(wordAt("echo {1..3}", 1)).toEqual(word("{1..3}", false, true))
    expect(wordAt("echo {ab,c}", 1)).toEqual(word("{ab,c}", false, true))
    expect(wordAt("echo {a,bc}", 1)).toEqual(word("{a,bc}", false, true))
    expect(wordAt("echo {a..z}", 1)).toEqual(word("{a..z}", false, true))
  })

  it("knows a number in a base given by a substitution only at run time", () => {
    expect(runs("echo 64#$(a)")).toEqual(["a", "echo <64#$(a)>"])
    expect(wordAt("echo 64#ff", 1)).toEqual(word("64#ff"))
  })

  it("gives an assignment without a value the empty word, written as nothing", () => {
    expect(analyse("C= ls").commands[0]?.assignments).toEqual([{ name: "C", value: { source: "", value: "", glob: false, brace: false, tilde: false } }])
  })
})

describe("redirections, field by field", () => {
  it("duplicates a descriptor only for a target that is a descriptor number (of any length) or `-`", () => {
    expect(redirects("ls 2>&10 >&a1 >&1a 3<&10")).toEqual(["duplicate >& 2 10", "write >& - a1", "write >& - 1a", "duplicate <& 3 10"])
  })

  it("keeps a here-string or a here-document's nested redirections on the command they feed", () => {
    expect(analyse("cat <<<x").commands[0]?.redirects.map(redirectText)).toEqual(["input <<< - -"])
    expect(analyse("<<<x cat").commands[0]?.redirects.map(redirectText)).toEqual(["input <<< - -"])
    expect(analyse("cat <<EOF >out 2>&1\nhi\nEOF").commands[0]?.redirects.map(redirectText)).toEqual(["input << - -", "write > - out", "duplicate >& 2 1"])
    expect(analyse("cat <<EOF >out 2>&1\nhi\nEOF").redirects.map((redirect) => redirect.source)).toEqual(["<<EOF >out 2>&1", ">out", "2>&1"])
  })

  it("gives `{name}` before a redirection to it, for a name of any length", () => {
    expect(runs("echo {f}>/dev/null hi")).toEqual(["echo hi"])
    expect(runs("echo {fdx}>/dev/null hi")).toEqual(["echo hi"])
    expect(runs("echo {fd_2}>/dev/null hi")).toEqual(["echo hi"])
  })
})

describe("commands, field by field", () => {
  const bare = (name: string, value: string) => ({ name, value: { source: value, value, glob: false, brace: false, tilde: false } })

  it("records a bare assignment with no argv, wrappers or redirections", () => {
    expect(analyse("A=1 B=x").commands).toEqual([
      { source: "A=1 B=x", argv: [], name: undefined, fullArgv: [], wrappers: [], assignments: [bare("A", "1"), bare("B", "x")], redirects: [], context: "top" }
    ])
  })

  it("records a declaration and a command run by another without redirections of their own", () => {
    expect(analyse("declare -r x").commands[0]?.redirects).toEqual([])
    expect(analyse("declare -r x").commands[0]?.assignments).toEqual([])
    expect(analyse("find . -exec rm {} \\;").commands[1]?.redirects).toEqual([])
  })

  it("walks a subshell the parser puts among a command's words", () => {
    // `@(a|b)` without extglob: tree-sitter-bash reads a word `@` and a subshell.
    expect(runs("ls @(a|b)")).toEqual(["a", "b", "ls <@>"])
    expect(contexts("ls @(a|b)")).toEqual(["top", "top", "top"])
  })

  it("does not walk the part of a line that does not parse (the line is refused)", () => {
    expect(runs("ls @(a|b) !(x)")).toEqual(["x"])
    expect(kinds("ls @(a|b) !(x)")).toEqual(["ParseError"])
  })

  it("runs what follows a function's here-document at the function's level, not in its body", () => {
    expect(runs("f() { :; } <<EOF && rm x\nhi\nEOF")).toEqual(["rm x", ":"])
    expect(contexts("f() { :; } <<EOF && rm x\nhi\nEOF")).toEqual(["top", "function"])
  })

  it("names a function by its unquoted name", () => {
    expect(kinds("function f\\o { :; }; fo")).toEqual(["FunctionCall"])
    expect(kinds("function f\\o { :; }; f\\\\o")).toEqual([])
  })

  it("reads `alias name` without `=` as defining nothing, not even part of the name", () => {
    expect(kinds("alias lx; l")).toEqual([])
    expect(kinds("alias lx; lx")).toEqual([])
  })

  it("reads a line continuation before an operator as a line continuation", () => {
    expect(kinds("echo a\\\n| cat")).toEqual([])
    expect(runs("echo a\\\n| cat")).toEqual(["echo a", "cat"])
    expect(kinds("echo a\\\n&& b")).toEqual([])
  })

  it("checks the arithmetic of a C-style for loop", () => {
    expect(kinds("for ((i = 0; i < \"2\"; i++)); do :; done")).toEqual(["ArithmeticSubscript"])
    expect(kinds("for ((i = 0; i < 2; i++)); do :; done")).toEqual([])
  })

  it("flags a command in a subscript wherever it sits in the brackets", () => {
    expect(kinds("echo 'a[1+$(b)]'")).toEqual(["ArithmeticSubscript"])
    expect(kinds("echo 'a[1+`b`]'")).toEqual(["ArithmeticSubscript"])
  })
})

describe("the nesting limit", () => {
  // The limit counts the levels the walk goes down (a substitution in an argument is three: the word, the
  // substitution, the command in it), so each construct reaches it at its own count. Pinned at the count where it
  // starts, one below passing.
  const nested = (open: string, inner: string, close: string) => (count: number) => open.repeat(count) + inner + close.repeat(count)
  const constructs: ReadonlyArray<readonly [string, (count: number) => string, number]> = [
    ["substitutions in arguments", nested("echo $(", "x", ")"), 66],
    ["substitutions as command names", nested("$(", "x", ")"), 66],
    ["process substitutions", (count) => "cat " + nested("<(", "x", ")")(count), 66],
    ["defaults of expansions", (count) => "echo " + nested("${x:-", "a", "}")(count), 199],
    ["arithmetic in expansions", (count) => "echo " + nested("${x:-$((", "1", "))}")(count), 40],
    ["function definitions", nested("f() { ", ":", "; }"), 99],
    ["groups", nested("{ ", "x", "; }"), 198],
    ["redirected groups", nested("{ ", "x", "; } >f"), 99],
    ["subshells", nested("(", "x", ")"), 201],
    ["redirection targets", nested("cat >$(", "x", ")"), 50],
    ["here-strings", nested("cat <<<$(", "x", ")"), 50],
    ["redirected commands", nested("$(", "x", ") >f"), 50],
    ["bare assignments", nested("A=$(", "x", ")"), 66],
    ["prefix assignments", nested("A=$(", "x", ") ls"), 66],
    ["declarations", nested("export A=$(", "x", ")"), 50],
    ["a here-document's body", (count) => "cat <<E\n" + nested("$(", "x", ")")(count) + "\nE", 66],
    ["a here-document's pipeline", (count) => "cat <<E | " + nested("$(", "x", ")")(count) + "\nE", 65],
    ["a here-document's redirection", (count) => "cat <<E >" + nested("$(", "x", ")")(count) + "\nE", 66],
    ["a function's redirection", (count) => "f() { :; } >" + nested("$(", "x", ")")(count), 66]
  ]
  for (const [name, line, count] of constructs) {
    it(`is reached by ${count} nested ${name}`, () => {
      expect(kinds(line(count - 1))).not.toContain("TooDeep")
      expect(kinds(line(count))).toContain("TooDeep")
    })
  }
})

describe("process substitutions inside parameter expansions", () => {
  // Bash runs `<(cmd)` and `>(cmd)` in the word or pattern of `${x:-...}`, `${x#...}`, `${x/.../...}`; tree-sitter-bash
  // reads them there as text, so the command would pass unseen.
  it("refuses them: the tree does not show the command", () => {
    for (const line of ["echo ${x:-<(rm x)}", "echo ${x->(rm x)}", "echo ${x:=<(rm x)}", "echo ${x:+<(rm x)}", "echo ${x#<(rm x)}", "echo ${x/a/<(rm x)}", "A=${x:-<(rm x)} ls", "ls >${x:-<(rm x)}"])
      expect(kinds(line), line).toContain("Unsupported")
  })

  it("reads the same text quoted or escaped as text", () => {
    expect(kinds("echo ${x:-'<(rm x)'}")).toEqual([])
    expect(kinds("echo ${x:-\\<\\(rm x\\)}")).toEqual([])
    expect(kinds("echo ${x:-a} <(b)")).toEqual([])
  })

  const denyRm = { user: { permissions: { deny: ["Bash(rm:*)"] } } }
  const allowEcho = { user: { permissions: { allow: ["Bash(echo:*)"] } } }
  const cases: ReadonlyArray<Case> = [
    { name: "deny", tool: "Bash", command: "echo ${x:-<(rm -rf x)}", settings: denyRm, mode: "bypassPermissions", expect: "deny" },
    { name: "ask", tool: "Bash", command: "echo ${x:->(rm -rf x)}", settings: allowEcho, expect: "ask" }
  ]
  for (const test of cases) {
    it.effect(`${JSON.stringify(test.command)} is ${test.expect}`, () =>
      Effect.gen(function* () {
        expect(verdict(yield* decisionOf(test))).toBe(test.expect)
      })
    )
  }
})

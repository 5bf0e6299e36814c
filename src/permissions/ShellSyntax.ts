/**
 * The tree-sitter half of ShellCommand: loads the parser (web-tree-sitter and the tree-sitter-bash grammar, both
 * WebAssembly) and turns a syntax tree into an Analysis. Loaded with `import()` on the first Bash call checked, so
 * that runs without one never load it.
 */
import { readFile } from "node:fs"
import { join } from "node:path"
import { setFlagsFromString } from "node:v8"
import { Language, Parser, type Tree } from "web-tree-sitter"
import {
  literal,
  unknownWord,
  type Analysis,
  type Assignment,
  type Redirect,
  type SimpleCommand,
  type Unanalysable,
  type UnanalysableKind,
  type Word,
  type Wrapper
} from "./ShellCommand.js"
import { executionOf } from "./ShellExecution.js"
import { unwrap } from "./ShellWrappers.js"

/** Defined (true) by scripts/build-bin.mjs: the .wasm files sit beside the bundle. */
declare const WEFT_BUNDLED: boolean | undefined

const wasmPath = async (file: string, specifier: string): Promise<string> => {
  // Stryker disable next-line ConditionalExpression,StringLiteral: only the bundled binary defines WEFT_BUNDLED; tests run the sources
  if (typeof WEFT_BUNDLED === "boolean") return join(__dirname, file)
  const { createRequire } = await import("node:module")
  return createRequire(import.meta.url).resolve(specifier)
}

const readBytes = (path: string): Promise<Uint8Array> =>
  new Promise((resolve, reject) => readFile(path, (error, data) => (error === null ? resolve(data) : reject(error))))

/**
 * Whether Node was started with WebAssembly tiering flags of its own (`node --liftoff-only`, NODE_OPTIONS): those are
 * the user's to keep, and undoing ours before a code cache is written would undo theirs.
 */
const wasmTiersGiven = (): boolean =>
  // Stryker disable next-line all: decides V8's WebAssembly tiering flags, which change compile speed, never the analysis
  /liftoff|wasm[-_](dynamic[-_])?tier/.test([...process.execArgv, process.env["NODE_OPTIONS"] ?? ""].join(" "))

let loading: Promise<(source: string) => Analysis> | undefined

/** Loads the parser once per process; resolves to the analyser. */
export const loadParser = (): Promise<(source: string) => Analysis> => {
  // Stryker disable next-line AssignmentOperator: loading again on every call gives the same analyser, only slower
  loading ??= (async () => {
    // The grammar's lexer is a few huge functions, which V8 also compiles with its optimising tier: ~0.7 s before
    // the first Bash call of a session could be checked. Its baseline compiler alone takes ~0.1 s, and a command
    // still parses in well under a millisecond (scratchpad/bench/session-bash.mjs). weft runs no other WebAssembly.
    // Not while the build trains the binary's code cache (cli/CodeCache.ts): V8 stamps a cache with the flags in
    // force, and runs start without this one. (Setting it at start-up instead costs every run ~50 M instructions:
    // Node's own built-in modules then compile without their embedded cache.)
    // A user cache written at exit (cli/CodeCache.ts) undoes it first, with what CodeCache's flagsToRestore names
    // (checked on Node.js 20's V8; where the flags differ, that cache is rejected and written again: slower, never
    // a failure).
    // Stryker disable all: V8 tiering flags change how fast the grammar compiles, never what it computes
    if (Reflect.get(globalThis, Symbol.for("weft.codeCacheTraining")) !== true && !wasmTiersGiven()) {
      setFlagsFromString("--liftoff-only")
      Reflect.set(globalThis, Symbol.for("weft.codeCacheFlagsToRestore"), "--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering")
    }
    // Stryker restore all
    const runtime = await wasmPath("web-tree-sitter.wasm", "web-tree-sitter/web-tree-sitter.wasm")
    // Stryker disable next-line ObjectLiteral: run from the sources, web-tree-sitter finds its .wasm beside itself; only the bundle needs locateFile
    await Parser.init({ locateFile: () => runtime })
    // Bytes, not a path: given a path, web-tree-sitter reads it through `import("fs/promises")`, which the bundle
    // (run as a vm.Script from the code cache) cannot do.
    const language = await Language.load(await readBytes(await wasmPath("tree-sitter-bash.wasm", "tree-sitter-bash/tree-sitter-bash.wasm")))
    const parser = new Parser()
    parser.setLanguage(language)
    return (source: string) => analyseSource(parser, source)
  })()
  // A failed load is not kept: the next check tries again.
  // Stryker disable next-line BlockStatement,CallExpression: only a failed load reaches it, which tests cannot cause without breaking the install
  loading.catch(() => {
    loading = undefined
  })
  return loading
}

const maxReasons = 8

/** Deeper nesting than this is not followed (nor needed by anyone writing a command by hand). */
const maxDepth = 200

// Bidirectional controls, zero-width characters and other invisible format characters: they make what a person
// reads in a prompt differ from what runs.
const hiddenCharacterRe = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/u

export const analyseSource = (parser: Parser, source: string): Analysis => {
  const walker = new Walker(source)
  if (hiddenCharacterRe.test(source)) {
    walker.reason("HiddenCharacters", "The command holds invisible or control characters, which can make it read differently from what runs.")
  }
  const tree = parser.parse(source)
  // Stryker disable all: unreachable: parse returns null only for a parser without a language, and this one has one
  if (tree === null) {
    return { source, commands: [], redirects: [], unanalysable: [{ kind: "ParseError", message: "The command could not be parsed." }] }
  }
  // Stryker restore all
  let root: Node
  let hasError: boolean
  try {
    hasError = tree.rootNode.hasError
    root = copyTree(tree, source)
  } finally /* Stryker disable next-line BlockStatement: freeing the WebAssembly tree changes memory use only */ {
    // Stryker disable next-line CallExpression: freeing the WebAssembly tree changes memory use only
    tree.delete()
  }
  if (hasError) walker.reason("ParseError", `The command does not parse cleanly as Bash (${firstError(root)}).`)
  // Stryker disable next-line ConditionalExpression,StringLiteral: a speed-up: without a backslash-newline hasSplitWord finds nothing
  if (source.includes("\\\n") && hasSplitWord(root, source)) {
    walker.reason("Unsupported", "A line continuation inside a word (`r\\⏎m`) is read one way by this parser and another by Bash.")
  }
  walker.walk(root, "top", 0)
  walker.finish()
  return { source, commands: walker.commands, redirects: walker.redirects, unanalysable: walker.reasons }
}

/**
 * A syntax node copied out of the WebAssembly tree. Each property read of web-tree-sitter's own nodes crosses into
 * WebAssembly and allocates; one pass with a cursor copies the tree, and the analysis then runs on plain objects.
 */
class Node {
  readonly children: Array<Node> = []
  readonly namedChildren: Array<Node> = []
  private readonly fields = new Map<string, Array<Node>>()

  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly startIndex: number,
    readonly endIndex: number
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex)
  }

  get childCount(): number {
    return this.children.length
  }

  get namedChildCount(): number {
    return this.namedChildren.length
  }

  add(child: Node, field: string | null): void {
    this.children.push(child)
    if (child.isNamed) this.namedChildren.push(child)
    // Stryker disable next-line ConditionalExpression: a child kept under no field is never looked up by field
    if (field === null) return
    const named = this.fields.get(field)
    if (named === undefined) this.fields.set(field, [child])
    else named.push(child)
  }

  childForFieldName(field: string): Node | null {
    return this.fields.get(field)?.[0] ?? null
  }

  childrenForFieldName(field: string): ReadonlyArray<Node> {
    return this.fields.get(field) ?? []
  }
}

/** Copies the tree with one cursor, without recursion (a line may nest thousands deep). */
const copyTree = (tree: Tree, source: string): Node => {
  const cursor = tree.walk()
  try {
    const make = () => new Node(source, cursor.nodeType, cursor.nodeIsNamed, cursor.nodeIsMissing, cursor.startIndex, cursor.endIndex)
    const root = make()
    if (!cursor.gotoFirstChild()) return root
    // The ancestors of the cursor's node.
    const ancestors: Array<Node> = [root]
    for (;;) {
      const node = make()
      // Stryker disable next-line OptionalChaining: the root stays in ancestors while the loop runs
      ancestors[ancestors.length - 1]?.add(node, cursor.currentFieldName)
      if (cursor.gotoFirstChild()) {
        ancestors.push(node)
        continue
      }
      while (!cursor.gotoNextSibling()) {
        if (ancestors.length <= 1) return root
        cursor.gotoParent()
        ancestors.pop()
      }
    }
  } finally /* Stryker disable next-line BlockStatement: freeing the cursor changes memory use only */ {
    // Stryker disable next-line CallExpression: freeing the cursor changes memory use only
    cursor.delete()
  }
}

/**
 * Whether a backslash-newline joins two parts the tree holds as separate words: Bash removes the pair and reads
 * one word (`r\⏎m` is `rm`), tree-sitter-bash reads two.
 */
const hasSplitWord = (root: Node, source: string): boolean => {
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    // Stryker disable next-line ConditionalExpression,BlockStatement: unreachable: the stack is not empty
    if (node === undefined) break
    let previous: Node | null = null
    for (const child of node.children) {
      // Stryker disable next-line EqualityOperator: an empty gap fails the test below as well
      if (previous !== null && previous.isNamed && child.isNamed && child.startIndex > previous.endIndex) {
        const gap = source.slice(previous.endIndex, child.startIndex)
        if (/^(\\\n)+$/.test(gap)) return true
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a speed-up: a leaf pushed has no children to compare
      if (child.childCount > 0) stack.push(child)
      previous = child
    }
  }
  return false
}

// Stryker disable all: the detail of a ParseError's message (where the parse failed); the checks read the kind
const firstError = (root: Node): string => {
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (node === undefined) break
    if (node.isMissing) return `missing ${JSON.stringify(node.type)} at offset ${node.startIndex}`
    if (node.type === "ERROR") return `unexpected ${JSON.stringify(node.text.slice(0, 40))} at offset ${node.startIndex}`
    for (let index = node.childCount - 1; index >= 0; index--) {
      const child = node.children[index]
      if (child !== undefined) stack.push(child)
    }
  }
  return "a syntax error"
}
// Stryker restore all

type Context = SimpleCommand["context"]

class Walker {
  readonly commands: Array<SimpleCommand> = []
  readonly redirects: Array<Redirect> = []
  readonly reasons: Array<Unanalysable> = []
  private readonly functions = new Set<string>()

  constructor(readonly source: string) {}

  reason(kind: UnanalysableKind, message: string): void {
    // A few reasons say enough; a long line could otherwise give one per command.
    if (this.reasons.length >= maxReasons) return
    if (!this.reasons.some((reason) => reason.kind === kind && reason.message === message)) this.reasons.push({ kind, message })
  }

  finish(): void {
    // Aliases defined in the line (`alias ls='rm -rf x'`): Bash expands them only where expand_aliases is on, but
    // a line that defines a name and uses it reads differently from what may run.
    const aliases = new Set(
      this.commands.flatMap((command) =>
        command.name === "alias" ? command.argv.slice(1).flatMap((word) => (word.value?.includes("=") === true ? [word.value.slice(0, word.value.indexOf("="))] : [])) : []
      )
    )
    for (const command of this.commands) {
      if (command.name !== undefined && this.functions.has(command.name)) {
        this.reason("FunctionCall", `\`${command.name}\` is a function defined in the command: what a call runs depends on the definition in force.`)
      }
      if (command.name !== undefined && aliases.has(command.name)) {
        this.reason("FunctionCall", `\`${command.name}\` is an alias defined in the command: what it runs depends on the shell's options.`)
      }
    }
  }

  walk(node: Node, context: Context, depth: number): void {
    if (depth > maxDepth) {
      // Once: reason() keeps each reason once.
      this.reason("TooDeep", `The command nests deeper than ${maxDepth} levels and was not analysed.`)
      return
    }
    switch (node.type) {
      // Stryker disable next-line StringLiteral: walked as any other node, a comment has no named child to walk
      case "comment":
      case "ERROR":
        return
      case "command":
        return this.command(node, context, [], depth)
      case "declaration_command":
      case "unset_command":
        return this.declaration(node, context, depth)
      case "variable_assignment":
      case "variable_assignments":
        return this.bareAssignments(node, context, depth)
      case "redirected_statement":
        return this.redirected(node, context, depth)
      case "function_definition": {
        const name = node.childForFieldName("name")
        if (name !== null) this.functions.add(resolveWord(name).value ?? name.text)
        for (const child of node.namedChildren) {
          if (child === name) continue
          if (isRedirect(child)) this.redirect(child, context, depth + 1)
          else this.walk(child, "function", depth + 1)
        }
        return
      }
      case "command_substitution":
      case "process_substitution":
        // `$(<file)`: walk reads the redirection.
        for (const child of node.namedChildren) this.walk(child, "substitution", depth + 1)
        return
      case "file_redirect":
      // Stryker disable next-line StringLiteral: the grammar puts a here-document only in a command, a redirected statement or a function definition, which read it themselves
      case "heredoc_redirect":
      // Stryker disable next-line StringLiteral: the grammar puts a here-string only in a command, a redirected statement or a function definition, which read it themselves
      case "herestring_redirect":
        this.redirect(node, context, depth)
        return
      case "arithmetic_expansion":
      case "c_style_for_statement":
        this.arithmetic(node)
        break
      case "compound_statement":
        if (node.text.startsWith("((")) this.arithmetic(node)
        break
      case "test_command":
        this.test(node)
        break
    }
    for (const child of node.namedChildren) this.walk(child, context, depth + 1)
  }

  /** Walks what a word may run: its substitutions (and checks arithmetic in it). */
  private inside(node: Node, context: Context, depth: number): void {
    if (node.type === "command_substitution" || node.type === "process_substitution") return this.walk(node, context, depth + 1)
    if (node.type === "arithmetic_expansion") this.arithmetic(node)
    this.within(node, context, depth)
  }

  private within(node: Node, context: Context, depth: number): void {
    if (depth > maxDepth) return this.walk(node, context, depth)
    for (const child of node.namedChildren) {
      // `${x:-<(cmd)}`, `${x#>(cmd)}`: Bash runs a process substitution in the words and patterns of a parameter
      // expansion; the tree holds it there as text.
      if ((child.type === "word" || child.type === "regex") && /[<>]\(/.test(child.text)) {
        this.reason("Unsupported", "A process substitution inside a parameter expansion (`${x:-<(cmd)}`) runs a command that this parser does not read.")
      }
      switch (child.type) {
        case "command_substitution":
        case "process_substitution":
          this.walk(child, context, depth + 1)
          break
        case "arithmetic_expansion":
          this.arithmetic(child)
          this.within(child, context, depth + 1)
          break
        default:
          this.within(child, context, depth + 1)
      }
    }
  }

  private arithmetic(node: Node): void {
    // Bash evaluates an array subscript met during arithmetic, and a subscript may hold `$(...)`: text quoted
    // inside arithmetic is such a route that the tree does not show.
    if (/['"\\`]/.test(node.text)) {
      this.reason("ArithmeticSubscript", "Arithmetic holds quoted text, which Bash may evaluate as a command.")
    }
  }

  /**
   * Static text holding `[...$(...)...]` or a backquote in brackets: stored in a variable and met in arithmetic
   * (`x='a[$(cmd)]'; echo $((x))`), Bash runs the command in the subscript.
   */
  private subscripts(words: ReadonlyArray<Word>): void {
    for (const word of words) {
      if (word.value !== undefined && /\[[^\]]*(\$\(|`)/.test(word.value)) {
        this.reason("ArithmeticSubscript", `\`${word.source}\` holds a command in a subscript, which Bash runs if the text is evaluated as arithmetic.`)
      }
    }
  }

  private test(node: Node): void {
    // `[[ x -eq 'a[$(cmd)]' ]]` evaluates the operands of -eq, -lt... as arithmetic.
    // The text ends in `]]` or ` ]`: a `[` after the opening bracket is one in the operands, which the slice below
    // holds; this test only spares the slice.
    // Stryker disable next-line StringLiteral: the test of the slice below decides alone
    if (/\s-(eq|ne|lt|le|gt|ge)\s/.test(node.text) && node.text.includes("[", 2)) {
      // Stryker disable next-line MethodExpression: the text holds no `[` after the opening bracket outside the operands
      const inner = node.text.slice(2, -2)
      if (inner.includes("[")) this.reason("ArithmeticSubscript", "An arithmetic comparison holds a subscript, which Bash may evaluate as a command.")
    }
  }

  private redirected(node: Node, context: Context, depth: number): void {
    const body = node.childForFieldName("body")
    const redirectNodes = node.namedChildren.filter((child) => child !== body && isRedirect(child))
    const redirects = redirectNodes.flatMap((child) => this.redirect(child, context, depth + 1))
    // `rm 2>/dev/null -rf x`: the tree holds `-rf` and `x` as more destinations of the redirection; Bash reads them as
    // the command's arguments. After a compound command (`{ ...; } > f b`) Bash refuses them.
    const trailing = redirectNodes.flatMap(wordsAfterTarget)
    if (body === null) return
    if (body.type === "command") this.command(body, context, redirects, depth + 1, trailing.map(resolveWord))
    else {
      if (trailing.length > 0) this.reason("ParseError", "Words follow the redirection of a compound command, which Bash refuses.")
      this.walk(body, context, depth + 1)
    }
  }

  /** Records a redirection (and walks what it may run); returns the redirections it holds. */
  private redirect(node: Node, context: Context, depth: number): ReadonlyArray<Redirect> {
    switch (node.type) {
      case "file_redirect": {
        const redirect = fileRedirect(node)
        this.redirects.push(redirect)
        this.inside(node, context, depth + 1)
        return [redirect]
      }
      case "heredoc_redirect": {
        const own: Redirect = { kind: "input", operator: operatorOf(node) ?? "<<", fd: descriptorOf(node), target: undefined, source: node.text.split("\n", 1)[0] ?? "" }
        this.redirects.push(own)
        const found: Array<Redirect> = [own]
        // A quoted delimiter (`<<'EOF'`, `<<\EOF`) keeps the body as written; otherwise Bash expands it.
        const expands = node.namedChildren.some((child) => child.type === "heredoc_start" && !/['"\\]/.test(child.text))
        for (const child of node.namedChildren) {
          // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a speed-up: walking these leaves finds nothing
          if (child.type === "heredoc_start" || child.type === "heredoc_end" || child.type === "file_descriptor") continue
          if (child.type === "heredoc_body") {
            // The tree does not parse a backquote in a here-document's body, which Bash runs.
            if (expands && child.text.includes("`")) {
              this.reason("Unsupported", "A backquote in a here-document runs a command that this parser does not read.")
            }
            this.inside(child, context, depth + 1)
          } else if (isRedirect(child)) found.push(...this.redirect(child, context, depth + 1))
          else this.walk(child, context, depth + 1)
        }
        return found
      }
      case "herestring_redirect": {
        const redirect: Redirect = { kind: "input", operator: "<<<", fd: descriptorOf(node), target: undefined, source: node.text }
        this.redirects.push(redirect)
        this.inside(node, context, depth + 1)
        return [redirect]
      }
      default:
        // Stryker disable next-line all: unreachable: every caller passes a redirection
        this.walk(node, context, depth + 1)
        // Stryker disable next-line all: unreachable: every caller passes a redirection
        return []
    }
  }

  private bareAssignments(node: Node, context: Context, depth: number): void {
    const nodes = node.type === "variable_assignments" ? node.namedChildren.filter((child) => child.type === "variable_assignment") : [node]
    const assignments = nodes.flatMap((assignment) => {
      this.inside(assignment, context, depth + 1)
      return assignmentOf(assignment)
    })
    this.subscripts(assignments.map((assignment) => assignment.value))
    this.commands.push({ source: node.text, argv: [], name: undefined, fullArgv: [], wrappers: [], assignments, redirects: [], context })
  }

  private declaration(node: Node, context: Context, depth: number): void {
    this.inside(node, context, depth + 1)
    const argv: Array<Word> = []
    for (const child of node.children) {
      if (child.type === "comment") continue
      argv.push(resolveWord(child))
    }
    this.add(node.text, argv, [], [], context, depth)
  }

  private command(node: Node, context: Context, outer: ReadonlyArray<Redirect>, depth: number, trailing: ReadonlyArray<Word> = []): void {
    const assignments: Array<Assignment> = []
    const redirects: Array<Redirect> = [...outer]
    const argv: Array<Word> = []
    for (const child of node.namedChildren) {
      if (child.type === "variable_assignment") {
        this.inside(child, context, depth + 1)
        assignments.push(...assignmentOf(child))
      } else if (isRedirect(child)) {
        redirects.push(...this.redirect(child, context, depth + 1))
        argv.push(...wordsAfterTarget(child).map(resolveWord))
      } else /* Stryker disable next-line BlockStatement: the last branch taken: without `continue` the loop goes on all the same */ if (child.type === "comment" || isDescriptorVariable(child, this.source)) {
        continue
      } else if (child.type === "command_name") {
        // The grammar gives a command_name one child, the word itself.
        this.inside(child, context, depth + 1)
        argv.push(resolveWord(child.namedChildren[0] ?? child))
      } else if (child.type === "subshell") {
        this.walk(child, context, depth + 1)
      } else {
        this.inside(child, context, depth + 1)
        argv.push(resolveWord(child))
      }
    }
    argv.push(...trailing)
    this.add(node.text, argv, assignments, redirects, context, depth)
  }

  /** Sees through wrappers, checks what the command executes and records it (and the commands it runs). */
  private add(
    source: string,
    fullArgv: ReadonlyArray<Word>,
    prefix: ReadonlyArray<Assignment>,
    redirects: ReadonlyArray<Redirect>,
    context: Context,
    depth: number,
    outerWrappers: ReadonlyArray<Wrapper> = []
  ): void {
    this.subscripts([...fullArgv, ...prefix.map((assignment) => assignment.value)])
    let argv = fullArgv
    const wrappers: Array<Wrapper> = [...outerWrappers]
    const assignments: Array<Assignment> = [...prefix]
    for (let level = 0; level < 16; level++) {
      const unwrapped = unwrap(argv)
      if (unwrapped === undefined || unwrapped._tag === "Itself") break
      if (unwrapped._tag === "Unanalysable") {
        this.reason(unwrapped.kind, unwrapped.message)
        break
      }
      wrappers.push({ name: literal(unwrapped.wrapperArgv[0] ?? unknownWord("")) ?? "", argv: unwrapped.wrapperArgv.slice(1), transparent: unwrapped.transparent })
      assignments.push(...unwrapped.assignments)
      argv = unwrapped.argv
    }
    const first = argv[0]
    const name = first === undefined ? undefined : literal(first)
    if (first !== undefined && name === undefined) {
      this.reason("DynamicCommandName", `The command name \`${first.source}\` is built when the command runs (${describe(first)}), so what runs cannot be told.`)
    } else if (name !== undefined && !/^[\x21-\x7e]+$/.test(name)) {
      this.reason("HiddenCharacters", `The command name ${JSON.stringify(name)} holds characters outside printable ASCII (a lookalike or an invisible character).`)
    }
    this.commands.push({ source, argv, name, fullArgv, wrappers, assignments, redirects, context })
    if (name === undefined) return
    const execution = executionOf(name, argv.slice(1))
    for (const reason of execution.reasons) this.reason(reason.kind, reason.message)
    for (const nested of execution.runs) {
      const wrapper: Wrapper = { name, argv: nested.wrapperArgv, transparent: true }
      this.add(source, nested.argv, [], [], "nested", depth + 1, [...wrappers, wrapper])
    }
  }
}

const isRedirect = (node: Node) => node.type === "file_redirect" || node.type === "heredoc_redirect" || node.type === "herestring_redirect"

const describe = (word: Word): string =>
  // Stryker disable next-line all: it only words part of a DynamicCommandName message; the checks read the kind
  word.value === undefined ? "an expansion or substitution" : word.glob ? "a glob" : word.brace ? "a brace expansion" : word.tilde ? "a home directory" : "an expansion"

const operatorOf = (node: Node): string | undefined => {
  for (const child of node.children) {
    // Stryker disable next-line LogicalOperator: a redirection's first unnamed child is its operator, and its named ones come before it only as a file_descriptor
    if (!child.isNamed && /^[<>&|-]+$/.test(child.type)) return child.type
  }
  return undefined
}

const descriptorOf = (node: Node): number | undefined => {
  // The grammar keeps a redirection's file_descriptor under this field.
  const descriptor = node.childForFieldName("descriptor")
  return descriptor === null ? undefined : Number(descriptor.text)
}

const discardTargets = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"])

/** `>&-` and `<&-` close a descriptor and take no target. */
const closes = (operator: string | undefined): boolean => operator === ">&-" || operator === "<&-"

/**
 * The words the tree puts after a redirection's target (`> f b c`, `<<EOF b c`, `>&- b c`): Bash reads them as
 * arguments.
 */
const wordsAfterTarget = (node: Node): ReadonlyArray<Node> => {
  if (node.type === "file_redirect") {
    const destinations = node.childrenForFieldName("destination")
    return closes(operatorOf(node)) ? destinations : destinations.slice(1)
  }
  if (node.type !== "heredoc_redirect") return []
  const words = node.childrenForFieldName("argument")
  return node.namedChildren.flatMap((child) => (words.includes(child) ? [child] : isRedirect(child) ? wordsAfterTarget(child) : []))
}

/** `{fd}>file`: Bash stores the descriptor it opens in `fd`; the word belongs to the redirection, not to argv. */
const isDescriptorVariable = (node: Node, source: string): boolean =>
  /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text) && /[<>]/.test(source.charAt(node.endIndex))

const fileRedirect = (node: Node): Redirect => {
  const operator = operatorOf(node) ?? ">"
  const fd = descriptorOf(node)
  const destination = closes(operator) ? null : node.childForFieldName("destination")
  const target = destination === null ? undefined : resolveWord(destination)
  const text = target === undefined ? undefined : literal(target)
  const base = { operator, fd, target, source: node.text }
  switch (operator) {
    case "<":
      return { ...base, kind: "read" }
    case "<&-":
    case ">&-":
      return { ...base, kind: "duplicate" }
    case ">&":
    case "<&":
      if (text !== undefined && /^(\d+-?|-)$/.test(text)) return { ...base, kind: "duplicate" }
      if (operator === "<&") return { ...base, kind: "read" }
      return { ...base, kind: text !== undefined && discardTargets.has(text) ? "discard" : "write" }
    default:
      return { ...base, kind: text !== undefined && discardTargets.has(text) ? "discard" : "write" }
  }
}

const assignmentOf = (node: Node): ReadonlyArray<Assignment> => {
  const name = node.childForFieldName("name")
  const value = node.childForFieldName("value")
  if (name === null) return []
  // `a[$(cmd)]=1`: the subscript is evaluated; `name` is then a subscript node, walked by the caller.
  const empty: Word = { source: "", value: "", glob: false, brace: false, tilde: false }
  return [{ name: name.text, value: value === null ? empty : resolveWord(value) }]
}

interface Piece {
  readonly text: string
  readonly quoted: boolean
}

/** The word a node stands for. */
export const resolveWord = (node: Node): Word => {
  const pieces = piecesOf(node)
  if (pieces === undefined) return { source: node.text, value: undefined, glob: false, brace: node.type === "brace_expression", tilde: false }
  const value = pieces.map((piece) => piece.text).join("")
  // A mask of the unquoted characters: globs, braces and tildes count only there.
  const unquoted = pieces.map((piece) => (piece.quoted ? "\u0000".repeat(piece.text.length) : piece.text)).join("")
  const glob = /[*?]/.test(unquoted) || /\[[^\]]*\]/.test(unquoted) || /[?*+@!]\(/.test(unquoted)
  const brace = node.type === "brace_expression" || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted)
  const tilde = unquoted.startsWith("~")
  return { source: node.text, value, glob, brace, tilde }
}

const piecesOf = (node: Node): ReadonlyArray<Piece> | undefined => {
  switch (node.type) {
    case "word":
    case "heredoc_start":
      return unquotedPieces(node.text)
    case "number":
      // Stryker disable next-line BooleanLiteral: a number (`64#ff`) holds no glob, brace or tilde character to mask
      return node.namedChildCount > 0 ? undefined : [{ text: node.text, quoted: false }]
    case "variable_name":
    case "file_descriptor":
      return [{ text: node.text, quoted: false }]
    case "raw_string":
      return [{ text: node.text.slice(1, -1), quoted: true }]
    case "string": {
      if (node.namedChildren.some((child) => child.type !== "string_content")) return undefined
      return [{ text: doubleQuoted(node.text.slice(1, -1)), quoted: true }]
    }
    case "ansi_c_string": {
      const decoded = ansiC(node.text.slice(2, -1))
      return decoded === undefined ? undefined : [{ text: decoded, quoted: true }]
    }
    // Stryker disable next-line ConditionalExpression: the concatenation branch below reads the same pieces from a brace_expression's parts
    case "brace_expression":
      // Stryker disable next-line BooleanLiteral: the node type alone marks it a brace expansion, and `{1..3}` holds no glob or tilde
      return [{ text: node.text, quoted: false }]
    case "concatenation": {
      // Stryker disable next-line ArrayDeclaration: a string in place of a piece has no text, which join() reads as empty
      const pieces: Array<Piece> = []
      let covered = 0
      for (const child of node.children) {
        const own = child.isNamed ? piecesOf(child) : unquotedPieces(child.text)
        if (own === undefined) return undefined
        pieces.push(...own)
        covered += child.text.length
      }
      // Anything between the parts (there should be nothing) is not understood.
      return covered === node.text.length ? pieces : undefined
    }
    default:
      // Expansions, substitutions, arithmetic, `$"..."` translations, arrays, test expressions: known only at run time.
      if (!node.isNamed) return unquotedPieces(node.text)
      return undefined
  }
}

/** An unquoted word: backslash quotes the next character, backslash-newline disappears. */
const unquotedPieces = (text: string): ReadonlyArray<Piece> => {
  // Stryker disable next-line ArrayDeclaration: a string in place of a piece has no text, which join() reads as empty
  const pieces: Array<Piece> = []
  let plain = ""
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index)
    if (char === "\\" && index + 1 < text.length) {
      const next = text.charAt(index + 1)
      index++
      if (next === "\n") continue
      // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty piece adds nothing to the value or the mask
      if (plain.length > 0) pieces.push({ text: plain, quoted: false })
      plain = ""
      pieces.push({ text: next, quoted: true })
      continue
    }
    plain += char
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty piece adds nothing to the value or the mask
  if (plain.length > 0) pieces.push({ text: plain, quoted: false })
  return pieces
}

/** Inside double quotes, a backslash quotes only $ ` " \ and newline. */
const doubleQuoted = (text: string): string => text.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === "\n" ? "" : char))

const simpleEscapes: Record<string, string> = {
  a: "\u0007", b: "\b", e: "\u001b", E: "\u001b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"
}

/** Decodes `$'...'` as Bash does; undefined for an escape it does not decode the same way every time. */
export const ansiC = (text: string): string | undefined => {
  let out = ""
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index)
    if (char !== "\\") {
      out += char
      continue
    }
    const next = text.charAt(index + 1)
    index++
    const simple = simpleEscapes[next]
    if (simple !== undefined) {
      out += simple
      continue
    }
    const take = (re: RegExp, max: number): string => {
      let digits = ""
      while (digits.length < max && re.test(text.charAt(index + 1 + digits.length))) digits += text.charAt(index + 1 + digits.length)
      return digits
    }
    if (/[0-7]/.test(next)) {
      const more = take(/[0-7]/, 2)
      index += more.length
      const code = parseInt(next + more, 8) & 0xff
      // NUL ends the word in Bash; a byte above 0x7f depends on the locale.
      if (code === 0 || code > 0x7f) return undefined
      out += String.fromCharCode(code)
      continue
    }
    if (next === "x" || next === "u" || next === "U") {
      const digits = take(/[0-9a-fA-F]/, next === "x" ? 2 : next === "u" ? 4 : 8)
      if (digits.length === 0) return undefined
      index += digits.length
      const code = parseInt(digits, 16)
      if (code === 0 || code > 0x10ffff || (next === "x" && code > 0x7f)) return undefined
      out += String.fromCodePoint(code)
      continue
    }
    // \cX (control characters) and anything unusual: not decoded.
    return undefined
  }
  return out
}

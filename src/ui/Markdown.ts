/**
 * Markdown as it streams: text arrives in pieces, and each line is styled once it is complete (then it goes into
 * the scrollback, never to be drawn again); the unfinished last line is shown as it stands. Code fences are set
 * apart (a bar and the language tag) and lightly highlighted, headings bold, lists bulleted, `code`, **bold** and *emphasis* styled.
 */
import { type Line, type Span, span, type Style } from "./Text.js"

export interface State {
  /** Text after the last complete line. */
  readonly partial: string
  /** Inside a code fence: its language tag ("" when none). */
  readonly fence: string | undefined
}

export const initial: State = { partial: "", fence: undefined }

const inline = (text: string, base: Style = {}): Array<Span> => {
  const spans: Array<Span> = []
  const pattern = /(\*\*[^*\n]+\*\*|__[^_\n]+__|`[^`\n]+`|\*[^*\s][^*\n]*\*|\[[^\]\n]+\]\([^)\s]+\))/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    const token = match[0]
    const at = match.index
    if (at > last) spans.push(span(text.slice(last, at), base))
    if (token.startsWith("**") || token.startsWith("__")) spans.push(span(token.slice(2, -2), { ...base, bold: true }))
    else if (token.startsWith("`")) spans.push(span(token.slice(1, -1), { ...base, color: "cyan" }))
    else if (token.startsWith("[")) {
      const close = token.indexOf("](")
      spans.push(span(token.slice(1, close), { ...base, color: "blue" }), span(` (${token.slice(close + 2, -1)})`, { ...base, dim: true }))
    } else spans.push(span(token.slice(1, -1), { ...base, italic: true }))
    last = at + token.length
  }
  if (last < text.length) spans.push(span(text.slice(last), base))
  return spans
}

const keywords = new Set(
  (
    "abstract as async await break case catch class const continue def default defer del do elif else enum export " +
    "extends false fi fn for from func function go if impl import in interface is let match mod module mut new nil " +
    "None not null of or package pass private protected pub public raise readonly return self static struct super " +
    "switch then this throw True true try type typeof undefined use var void while with yield"
  ).split(" ")
)
/** Languages whose line comments start with `#` (else `//`). */
const hashComments = new Set(["sh", "bash", "shell", "zsh", "py", "python", "rb", "ruby", "yaml", "yml", "toml", "make", "dockerfile"])

/**
 * One line of a fenced block, lightly highlighted when it has a language tag: keywords, strings, numbers and line
 * comments (line by line, as it streams: a string or comment over several lines is not followed).
 */
const highlight = (line: string, language: string): Array<Span> => {
  if (language === "") return [span(line)]
  const comment = hashComments.has(language.toLowerCase()) ? "#" : "//"
  const spans: Array<Span> = []
  const pattern = /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?|\b\d[\d_.]*\b|[A-Za-z_$][\w$]*|\/\/.*$|#.*$)/g
  let last = 0
  for (const match of line.matchAll(pattern)) {
    const token = match[0]
    const at = match.index
    if (token.startsWith("#") || token.startsWith("//")) {
      if (!token.startsWith(comment)) continue
      if (at > last) spans.push(span(line.slice(last, at)))
      spans.push(span(line.slice(at), { color: "gray" }))
      last = line.length
      break
    }
    if (at > last) spans.push(span(line.slice(last, at)))
    const style: Style = /^["'`]/.test(token) ? { color: "green" } : /^\d/.test(token) ? { color: "yellow" } : keywords.has(token) ? { color: "magenta" } : {}
    spans.push(span(token, style))
    last = at + token.length
  }
  if (last < line.length) spans.push(span(line.slice(last)))
  return spans
}

const fenceMark = /^\s*(```|~~~)\s*([\w+#.-]*)\s*$/

/** One complete line, styled, and the fence state after it. */
const renderLine = (line: string, fence: string | undefined): { readonly line: Line; readonly fence: string | undefined } => {
  const mark = fenceMark.exec(line)
  if (fence !== undefined) {
    if (mark !== null && mark[2] === "") return { line: [span("  ╰─", { dim: true })], fence: undefined }
    return { line: [span("  │ ", { dim: true }), ...highlight(line, fence)], fence }
  }
  if (mark !== null) {
    const language = mark[2] ?? ""
    return { line: [span(`  ╭─${language === "" ? "" : ` ${language}`}`, { dim: true })], fence: language }
  }
  const heading = /^(#{1,6})\s+(.*)$/.exec(line)
  if (heading !== null) return { line: inline(heading[2] ?? "", { bold: true }), fence }
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line)
  if (bullet !== null) return { line: [span(`${bullet[1] ?? ""}  • `), ...inline(bullet[2] ?? "")], fence }
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(line)
  if (numbered !== null) return { line: [span(`${numbered[1] ?? ""}  ${numbered[2]} `), ...inline(numbered[3] ?? "")], fence }
  const quote = /^>\s?(.*)$/.exec(line)
  if (quote !== null) return { line: [span("  │ ", { dim: true }), ...inline(quote[1] ?? "", { italic: true })], fence }
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return { line: [span("─".repeat(20), { dim: true })], fence }
  return { line: inline(line), fence }
}

/** Adds `text`: the lines it completed, styled, and the state after. */
export const feed = (state: State, text: string): { readonly state: State; readonly lines: ReadonlyArray<Line> } => {
  const all = state.partial + text
  const parts = all.split("\n")
  const partial = parts.pop() ?? ""
  let fence = state.fence
  const lines: Array<Line> = []
  for (const part of parts) {
    const rendered = renderLine(part, fence)
    lines.push(rendered.line)
    fence = rendered.fence
  }
  return { state: { partial, fence }, lines }
}

/** The unfinished line as it would look now. */
export const partialLine = (state: State): Line | undefined =>
  state.partial === "" ? undefined : renderLine(state.partial, state.fence).line

/** Ends the text (the message is complete): its last line, if any. */
export const finish = (state: State): ReadonlyArray<Line> => {
  const last = partialLine(state)
  return last === undefined ? [] : [last]
}

/**
 * Styled text for the terminal: a line is a list of spans, each with a style; `wrap` cuts it into rows of the
 * terminal's width (at spaces where it can), `toAnsi` writes a row with SGR codes — colours left out under
 * NO_COLOR, attributes (bold, dim) kept as no-color.org allows.
 */

export interface Style {
  readonly bold?: boolean
  readonly dim?: boolean
  readonly italic?: boolean
  readonly inverse?: boolean
  readonly color?: "red" | "green" | "yellow" | "blue" | "magenta" | "cyan" | "gray"
}

export interface Span {
  readonly text: string
  readonly style: Style
}

export type Line = ReadonlyArray<Span>

export const plain: Style = {}

export const span = (text: string, style: Style = plain): Span => ({ text, style })

/** Columns a code point takes: 0 for combining marks, 2 for wide East Asian characters and emoji. */
export const charWidth = (code: number): number => {
  if (code < 0x20) return 0
  if (code < 0x300) return 1
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2
  }
  return 1
}

export const textWidth = (text: string): number => {
  let width = 0
  for (const char of text) width += charWidth(char.codePointAt(0) ?? 0)
  return width
}

/** Tabs as spaces and other control characters dropped: what reaches the terminal never moves its cursor. */
export const sanitize = (text: string): string =>
  text.replace(/\t/g, "    ").replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, "")

interface Cell {
  readonly char: string
  readonly width: number
  readonly style: Style
}

const cellsOf = (line: Line): Array<Cell> => {
  const cells: Array<Cell> = []
  for (const part of line) {
    for (const char of sanitize(part.text)) {
      if (char === "\n") continue
      cells.push({ char, width: charWidth(char.codePointAt(0) ?? 0), style: part.style })
    }
  }
  return cells
}

const sameStyle = (a: Style, b: Style) =>
  a.bold === b.bold && a.dim === b.dim && a.italic === b.italic && a.inverse === b.inverse && a.color === b.color

const spansOf = (cells: ReadonlyArray<Cell>): Line => {
  const spans: Array<Span> = []
  for (const cell of cells) {
    const last = spans[spans.length - 1]
    if (last !== undefined && sameStyle(last.style, cell.style)) spans[spans.length - 1] = { text: last.text + cell.char, style: last.style }
    else spans.push({ text: cell.char, style: cell.style })
  }
  return spans
}

/**
 * The rows `line` takes at `width` columns: cut at the last space that fits when there is one, else mid-word;
 * `indent` columns of spaces start each continuation row. An empty line is one empty row.
 */
export const wrap = (line: Line, width: number, indent = 0): ReadonlyArray<Line> => {
  const columns = Math.max(1, width)
  const cells = cellsOf(line)
  const rows: Array<Line> = []
  let start = 0
  let first = true
  while (start < cells.length || rows.length === 0) {
    const lead = first ? 0 : Math.min(indent, columns - 1)
    const room = columns - lead
    let used = 0
    let end = start
    let lastSpace = -1
    while (end < cells.length) {
      const cell = cells[end]
      if (cell === undefined || used + cell.width > room) break
      if (cell.char === " ") lastSpace = end
      used += cell.width
      end++
    }
    if (end < cells.length && lastSpace > start) end = lastSpace + 1
    if (end === start && start < cells.length) end = start + 1 // a character wider than the row
    const row = spansOf(cells.slice(start, end))
    rows.push(lead > 0 ? [span(" ".repeat(lead)), ...row] : row)
    start = end
    first = false
  }
  return rows
}

const colorCodes: Readonly<Record<NonNullable<Style["color"]>, string>> = {
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
  magenta: "35",
  cyan: "36",
  gray: "90"
}

const sgr = (style: Style, color: boolean): string => {
  const codes: Array<string> = []
  if (style.bold) codes.push("1")
  if (style.dim) codes.push("2")
  if (style.italic) codes.push("3")
  if (style.inverse) codes.push("7")
  if (color && style.color !== undefined) codes.push(colorCodes[style.color])
  return codes.length === 0 ? "" : `\x1b[${codes.join(";")}m`
}

/** A row as the terminal's bytes; `color: false` under NO_COLOR. */
export const toAnsi = (line: Line, color: boolean): string => {
  let out = ""
  for (const part of line) {
    const code = sgr(part.style, color)
    const text = sanitize(part.text)
    out += code === "" ? text : `${code}${text}\x1b[0m`
  }
  return out
}

/** The row's text without styles (tests, widths). */
export const toPlain = (line: Line): string => line.map((part) => part.text).join("")

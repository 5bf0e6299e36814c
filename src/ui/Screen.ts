/**
 * The terminal as weft draws on it: finished output goes into the scrollback once, above a live region (the
 * streaming line, a permission question, the prompt, the status line) that is redrawn in place. A frame rewrites
 * the live region from its first changed row only; finished rows are never written again, and nothing is drawn
 * with absolute positions, so the terminal's own scrollback (and tmux's) keeps the transcript.
 *
 * Rows handed to the Screen fit the width (the caller wraps them with Text.wrap) and carry their SGR codes.
 */
import { textWidth } from "./Text.js"

export interface Sink {
  readonly write: (bytes: string) => void
  readonly columns: () => number
}

export interface Frame {
  /** Finished rows, written into the scrollback above the live region. */
  readonly commit: ReadonlyArray<string>
  /** The live region's rows. */
  readonly live: ReadonlyArray<string>
  /** Where the cursor rests: a row of `live` and a column. */
  readonly cursor: { readonly row: number; readonly column: number }
}

export interface Stats {
  bytes: number
  frames: number
  /** Cursor movement and erase sequences written (CSI A/B/C/D/J/K). */
  cursorMoves: number
}

/** Columns a row takes on screen (its SGR codes take none). */
const visibleWidth = (row: string): number => textWidth(row.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ""))

/** Above this many finished rows at once, the live region is erased and drawn again below them instead. */
const maxInsertedRows = 8

/** Where `text` may be cut without splitting an escape sequence or a surrogate pair: the last safe index ≤ `at`. */
const safeCut = (text: string, at: number): number => {
  let cut = Math.max(0, Math.min(at, text.length))
  const escape = text.lastIndexOf("\x1b", cut - 1)
  if (escape >= 0) {
    const match = /^\x1b\[[0-9;?]*[A-Za-z]/.exec(text.slice(escape))
    if (match !== null && escape + match[0].length > cut) cut = escape
  }
  const code = text.charCodeAt(cut - 1)
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1
  return cut
}

/**
 * The bytes that turn row `was` (the cursor on its row) into `now`: the common start is skipped; when the rest
 * differs only in a middle of the same width (a spinner's frame, a digit), only that middle is written.
 */
export const patchRow = (was: string, now: string): string => {
  let prefix = 0
  while (prefix < was.length && prefix < now.length && was[prefix] === now[prefix]) prefix++
  prefix = safeCut(now, prefix)
  let suffix = 0
  while (
    suffix < was.length - prefix &&
    suffix < now.length - prefix &&
    was[was.length - 1 - suffix] === now[now.length - 1 - suffix]
  ) suffix++
  // The suffix must start at a safe cut of both rows.
  while (suffix > 0 && (safeCut(now, now.length - suffix) !== now.length - suffix || safeCut(was, was.length - suffix) !== was.length - suffix)) suffix--
  const skipped = now.slice(0, prefix)
  const column = visibleWidth(skipped)
  // The style in force where the write starts: the SGR codes of the skipped part since its last reset.
  const reset = skipped.lastIndexOf("\x1b[0m")
  const style = (skipped.slice(reset < 0 ? 0 : reset + 4).match(/\x1b\[[0-9;]*m/g) ?? []).join("")
  const close = style === "" ? "" : "\x1b[0m"
  const middle = now.slice(prefix, now.length - suffix)
  if (suffix > 0 && visibleWidth(middle) === visibleWidth(was.slice(prefix, was.length - suffix)) && !middle.includes("\x1b")) {
    return `\r${right(column)}${style}${middle}${close}`
  }
  const rest = now.slice(prefix)
  return `\r${right(column)}${style}${rest}${now.startsWith(was) ? "" : "\x1b[K"}`
}

const up = (rows: number) => (rows > 0 ? `\x1b[${rows}A` : "")
const down = (rows: number) => (rows > 0 ? `\x1b[${rows}B` : "")
const right = (columns: number) => (columns > 0 ? `\x1b[${columns}C` : "")

export class Screen {
  /** The live rows on screen now. */
  private rows: ReadonlyArray<string> = []
  /** The live row the terminal's cursor is on, and its column. */
  private cursorRow = 0
  private cursorColumn = 0
  private width: number
  readonly stats: Stats = { bytes: 0, frames: 0, cursorMoves: 0 }

  constructor(private readonly sink: Sink) {
    this.width = sink.columns()
  }

  get columns(): number {
    return this.width
  }

  /** Draws a frame; writes nothing when nothing changed. */
  draw(frame: Frame): void {
    let out = ""
    const count = frame.commit.length
    if (count > 0 && (this.rows.length === 0 || count > maxInsertedRows)) {
      // Back to the live region's top, erase it, write the finished rows, then the live region below them.
      out += `\r${up(this.cursorRow)}\x1b[J`
      out += frame.commit.map((row) => `${row}\r\n`).join("")
      out += frame.live.join("\r\n")
      this.cursorRow = Math.max(0, frame.live.length - 1)
      this.rows = frame.live
    } else if (count > 0) {
      // A streaming line that is now finished (the live region's first row, a beginning of the first finished
      // row) is completed where it stands rather than written again.
      const first = this.rows[0] ?? ""
      const promoted = first !== "" && (frame.commit[0] ?? "").startsWith(first) ? 1 : 0
      if (promoted === 1) out += this.moveTo(0) + patchRow(first, frame.commit[0] ?? "")
      if (promoted === 1) this.cursorRow = 0
      // Room for `count` rows below the live region (the screen scrolls when it is at the bottom), then as many
      // blank rows inserted (IL) below the promoted row, which push the rest of the live region down into that
      // room: the other finished rows are written there, and the live region is not drawn again, only what
      // changed in it (below).
      out += `${this.moveTo(this.rows.length - 1)}${"\n".repeat(count)}\r${up(this.rows.length - 1 + count - promoted)}\x1b[${count}L`
      const rest = frame.commit.slice(promoted)
      out += rest.join("\r\n")
      // On screen now, from the live region's new top (`count` rows below its old one): the promoted row's
      // blank successor, then the rows that moved down.
      this.cursorRow = (rest.length > 0 ? count - 1 : promoted) - count
      this.rows = [...Array.from({ length: promoted }, () => ""), ...this.rows.slice(promoted)]
    }
    if (this.rows !== frame.live) out += this.update(frame.live)
    this.rows = frame.live
    const row = Math.min(frame.cursor.row, Math.max(0, frame.live.length - 1))
    const settle = `${this.moveTo(row)}\r${right(frame.cursor.column)}`
    if (out === "" && row === this.cursorRow && frame.cursor.column === this.cursorColumn) return
    out += settle
    this.cursorRow = row
    this.cursorColumn = frame.cursor.column
    this.write(out)
  }

  /** The bytes that turn the live rows on screen into `live`. */
  private update(live: ReadonlyArray<string>): string {
    let first = 0
    while (first < live.length && first < this.rows.length && live[first] === this.rows[first]) first++
    if (first === live.length && first === this.rows.length) return ""
    let out = ""
    if (live.length === this.rows.length) {
      // Same height: each changed row patched in place.
      for (let index = first; index < live.length; index++) {
        const now = live[index] ?? ""
        const was = this.rows[index] ?? ""
        if (now === was) continue
        out += this.moveTo(index) + patchRow(was, now)
        this.cursorRow = index
      }
      return out
    }
    if (first < this.rows.length) {
      out += `${this.moveTo(first)}\r\x1b[J${live.slice(first).join("\r\n")}`
    } else {
      // Rows added below unchanged ones.
      out += (this.rows.length > 0 ? `${this.moveTo(this.rows.length - 1)}\r\n` : "\r") + live.slice(first).join("\r\n")
    }
    this.cursorRow = Math.max(0, live.length - 1)
    return out
  }

  /** The width changed (SIGWINCH): the live region is erased as the terminal reflowed it, and drawn again by the next frame. */
  resize(): void {
    const width = Math.max(1, this.sink.columns())
    if (width === this.width) return
    // Rows above the cursor as the terminal shows them now (a terminal that reflows wraps long rows anew).
    let above = Math.floor(this.cursorColumn / width)
    for (let index = 0; index < this.cursorRow; index++) above += Math.max(1, Math.ceil(visibleWidth(this.rows[index] ?? "") / width))
    this.width = width
    this.write(`\r${up(above)}\x1b[J`)
    this.rows = []
    this.cursorRow = 0
    this.cursorColumn = 0
  }

  /** Clears the screen and its scrollback (/clear); the live region is drawn again by the next frame. */
  clear(): void {
    this.write("\x1b[2J\x1b[3J\x1b[H")
    this.rows = []
    this.cursorRow = 0
    this.cursorColumn = 0
  }

  /** Erases the live region (at exit): the scrollback ends with the transcript. */
  release(): void {
    this.write(`\r${up(this.cursorRow)}\x1b[J`)
    this.rows = []
    this.cursorRow = 0
    this.cursorColumn = 0
  }

  private moveTo(row: number): string {
    const target = Math.max(-1, row)
    return target < this.cursorRow ? up(this.cursorRow - target) : down(target - this.cursorRow)
  }

  private write(bytes: string): void {
    if (bytes === "") return
    this.stats.bytes += Buffer.byteLength(bytes)
    this.stats.frames += 1
    this.stats.cursorMoves += (bytes.match(/\x1b\[\d*[ABCDJK]/g) ?? []).length
    this.sink.write(bytes)
  }
}

/**
 * The terminal as weft draws on it: finished output goes into the scrollback once, above a live region (the
 * streaming line, a permission question, the prompt, the status line) that is redrawn in place. A frame rewrites
 * the live region from its first changed row only; finished rows are never written again, and nothing is drawn
 * with absolute positions, so the terminal's own scrollback (and tmux's) keeps the transcript.
 *
 * Rows handed to the Screen fit the width (the caller wraps them with Text.wrap) and carry their SGR codes.
 */

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
export const visibleWidth = (row: string): number => {
  let width = 0
  for (const char of row.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")) {
    const code = char.codePointAt(0) ?? 0
    width += code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xff60) || (code >= 0x1f300 && code <= 0x1faff)) ? 2 : code < 0x20 || (code >= 0x300 && code <= 0x36f) ? 0 : 1
  }
  return width
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
    if (frame.commit.length > 0) {
      // Back to the live region's top, erase it, write the finished rows, then the live region below them.
      out += `\r${up(this.cursorRow)}\x1b[J`
      out += frame.commit.map((row) => `${row}\r\n`).join("")
      out += frame.live.join("\r\n")
      this.cursorRow = Math.max(0, frame.live.length - 1)
    } else {
      let first = 0
      while (first < frame.live.length && first < this.rows.length && frame.live[first] === this.rows[first]) first++
      const unchanged = first === frame.live.length && first === this.rows.length
      if (unchanged) {
        if (frame.cursor.row === this.cursorRow && frame.cursor.column === this.cursorColumn) return
      } else if (frame.live.length === this.rows.length) {
        // Same height: each changed row rewritten in place; a row that grew is only appended to (a streaming line).
        for (let index = first; index < frame.live.length; index++) {
          const now = frame.live[index] ?? ""
          const was = this.rows[index] ?? ""
          if (now === was) continue
          out += this.moveTo(index)
          this.cursorRow = index
          out += now.startsWith(was) && was !== "" ? `\r${right(visibleWidth(was))}${now.slice(was.length)}` : `\r${now}\x1b[K`
        }
      } else if (first < this.rows.length) {
        out += this.moveTo(first) + `\r\x1b[J` + frame.live.slice(first).join("\r\n")
        this.cursorRow = Math.max(0, frame.live.length - 1)
      } else {
        // Rows added below unchanged ones.
        out += this.moveTo(this.rows.length - 1) + (this.rows.length > 0 ? "\r\n" : "\r") + frame.live.slice(first).join("\r\n")
        this.cursorRow = Math.max(0, frame.live.length - 1)
      }
    }
    this.rows = frame.live
    const row = Math.min(frame.cursor.row, Math.max(0, frame.live.length - 1))
    out += `${this.moveTo(row)}\r${right(frame.cursor.column)}`
    this.cursorRow = row
    this.cursorColumn = frame.cursor.column
    this.write(out)
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
    const target = Math.max(0, row)
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

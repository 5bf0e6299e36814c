/**
 * A terminal of fixed size for the renderer's tests: it interprets what weft writes (text, CR, LF, cursor moves,
 * erase, SGR) into a screen and a scrollback, as a VT100-like terminal does, and records every byte.
 */
export class FakeTerminal {
  /** Lines scrolled off the top. */
  readonly scrollback: Array<string> = []
  private screen: Array<string>
  private row = 0
  private column = 0
  private pendingWrap = false
  bytes = ""
  /** Characters that reached the last column and wrapped by themselves (weft never lets a row do that). */
  autoWraps = 0

  constructor(
    public columns: number,
    readonly rows: number
  ) {
    this.screen = Array.from({ length: rows }, () => "")
  }

  readonly sink = {
    write: (bytes: string) => this.write(bytes),
    columns: () => this.columns
  }

  write(bytes: string): void {
    this.bytes += bytes
    let index = 0
    while (index < bytes.length) {
      const char = bytes[index] ?? ""
      if (char === "\x1b") {
        const match = /^\x1b\[([0-9;?]*)([A-Za-z~])/.exec(bytes.slice(index))
        if (match === null) throw new Error(`unexpected escape at ${JSON.stringify(bytes.slice(index, index + 10))}`)
        this.csi(match[1] ?? "", match[2] ?? "")
        index += match[0].length
        continue
      }
      if (char === "\r") {
        this.column = 0
        this.pendingWrap = false
      } else if (char === "\n") {
        this.lineFeed()
        this.pendingWrap = false
      } else {
        const code = char.codePointAt(0) ?? 0
        const text = code > 0xffff ? String.fromCodePoint(code) : char
        if (this.pendingWrap) {
          this.autoWraps++
          this.column = 0
          this.lineFeed()
          this.pendingWrap = false
        }
        const line = this.screen[this.row] ?? ""
        this.screen[this.row] = line.padEnd(this.column, " ").slice(0, this.column) + text + line.slice(this.column + 1)
        if (this.column === this.columns - 1) this.pendingWrap = true
        else this.column++
        index += text.length
        continue
      }
      index++
    }
  }

  private lineFeed() {
    if (this.row === this.rows - 1) {
      this.scrollback.push(this.screen.shift() ?? "")
      this.screen.push("")
    } else this.row++
  }

  private csi(params: string, final: string) {
    const n = params === "" ? 1 : Number.parseInt(params, 10)
    this.pendingWrap = false
    switch (final) {
      case "A":
        this.row = Math.max(0, this.row - n)
        break
      case "B":
        this.row = Math.min(this.rows - 1, this.row + n)
        break
      case "C":
        this.column = Math.min(this.columns - 1, this.column + n)
        break
      case "D":
        this.column = Math.max(0, this.column - n)
        break
      case "J":
        if (params === "2") this.screen = this.screen.map(() => "")
        else if (params === "3") this.scrollback.length = 0
        else {
          this.screen[this.row] = (this.screen[this.row] ?? "").slice(0, this.column)
          for (let row = this.row + 1; row < this.rows; row++) this.screen[row] = ""
        }
        break
      case "K":
        this.screen[this.row] = (this.screen[this.row] ?? "").slice(0, this.column)
        break
      case "L": {
        // Insert lines: rows from the cursor's down move down, the bottom ones are lost.
        const blank = Array.from({ length: n }, () => "")
        this.screen = [...this.screen.slice(0, this.row), ...blank, ...this.screen.slice(this.row)].slice(0, this.rows)
        this.column = 0
        break
      }
      case "H":
        this.row = 0
        this.column = 0
        break
      default:
        // SGR (m), private modes (h, l): no effect on the text.
        break
    }
  }

  /** The visible screen, trailing blank lines dropped. */
  get visible(): Array<string> {
    const lines = this.screen.map((line) => line.trimEnd())
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
    return lines
  }

  /** Everything the terminal shows, scrollback then screen. */
  get all(): Array<string> {
    return [...this.scrollback.map((line) => line.trimEnd()), ...this.visible]
  }

  get cursor() {
    return { row: this.row, column: this.column }
  }
}

/** A clock and timers that move only when told. */
export class FakeTimers {
  now = 0
  private queue: Array<{ at: number; run: () => void; cancelled: boolean }> = []

  readonly timers = {
    schedule: (run: () => void, ms: number) => {
      const entry = { at: this.now + ms, run, cancelled: false }
      this.queue.push(entry)
      return () => {
        entry.cancelled = true
      }
    }
  }

  get pending(): number {
    return this.queue.filter((entry) => !entry.cancelled).length
  }

  advance(ms: number): void {
    const until = this.now + ms
    for (;;) {
      this.queue = this.queue.filter((entry) => !entry.cancelled)
      this.queue.sort((a, b) => a.at - b.at)
      const next = this.queue[0]
      if (next === undefined || next.at > until) break
      this.queue.shift()
      this.now = Math.max(this.now, next.at)
      next.run()
    }
    this.now = until
  }
}

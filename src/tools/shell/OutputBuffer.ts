/**
 * Holds the output of a command within a fixed bound however much it prints: the first `headLimit` characters
 * and the last `tailLimit` characters, counting what fell in between. A command printing 1 GB costs at most
 * headLimit + 2 × tailLimit characters of memory.
 */
export class OutputBuffer {
  private head = ""
  private tail = ""
  private dropped = 0

  constructor(
    readonly headLimit = 15_000,
    readonly tailLimit = 15_000
  ) {}

  append(text: string): void {
    if (text.length === 0) return
    let rest = text
    if (this.head.length < this.headLimit && this.tail.length === 0) {
      const room = this.headLimit - this.head.length
      this.head += rest.slice(0, room)
      rest = rest.slice(room)
    }
    if (rest.length === 0) return
    this.tail += rest
    // Trim only when twice over the bound, so appends stay amortised O(1).
    if (this.tail.length > 2 * this.tailLimit) this.trimTail()
  }

  private trimTail(): void {
    const excess = this.tail.length - this.tailLimit
    if (excess > 0) {
      this.dropped += excess
      this.tail = this.tail.slice(excess)
    }
  }

  /** Characters appended so far (kept or not). */
  get total(): number {
    return this.head.length + this.tail.length + this.dropped
  }

  get isEmpty(): boolean {
    return this.total === 0
  }

  /** The kept text, with a note of how many characters were cut from the middle. */
  render(): string {
    this.trimTail()
    if (this.dropped === 0) return this.head + this.tail
    return `${this.head}\n\n... [${this.dropped} characters truncated] ...\n\n${this.tail}`
  }

  /** Renders and empties the buffer (for reading new output incrementally). */
  take(): string {
    const text = this.render()
    this.head = ""
    this.tail = ""
    this.dropped = 0
    return text
  }
}

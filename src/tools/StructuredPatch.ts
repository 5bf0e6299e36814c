/**
 * The line diff of a file change as Claude Code reports it to PostToolUse hooks (`structuredPatch`): hunks of
 * `{oldStart, oldLines, newStart, newLines, lines}` (1-based starts), each line prefixed by " ", "-" or "+", with 3
 * lines of context, as jsdiff's `structuredPatch` (which Claude Code uses) makes them.
 *
 * Myers' O((N+M)·D) diff on what lies between the common prefix and suffix; past `maxEditDistance` differences the
 * middle is reported as removed and added whole, which bounds the time and memory a rewrite of a big file costs.
 * Not reported: jsdiff's "\ No newline at end of file" lines.
 */

import type { Hunk } from "../domain/Patch.js"

export type { Hunk }

/** Lines of context around each change (Claude Code's). */
export const contextLines = 3

/** Differences past which the changed middle is reported whole: bounds the trace to ~maxEditDistance² numbers. */
export const maxEditDistance = 1000

type Op = " " | "-" | "+"

/** A text's lines, a final line break ending the last line rather than starting an empty one. */
const linesOf = (text: string): ReadonlyArray<string> => {
  if (text === "") return []
  const lines = text.split("\n")
  if (lines[lines.length - 1] === "") lines.pop()
  return lines
}

/** The edit script turning `a` into `b` (Myers), or undefined past `maxEditDistance`. */
const myers = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<Op> | undefined => {
  const n = a.length
  const m = b.length
  const limit = Math.min(n + m, maxEditDistance)
  const offset = limit + 1
  const v = new Int32Array(2 * limit + 3)
  // trace[d] holds v[-d..d] as it was before step d.
  const trace: Array<Int32Array> = []
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice(offset - d, offset + d + 1))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, n, m)
    }
  }
  return undefined
}

const backtrack = (trace: ReadonlyArray<Int32Array>, n: number, m: number): Array<Op> => {
  const ops: Array<Op> = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d >= 0; d--) {
    const before = trace[d]!
    const at = (k: number) => before[k + d]!
    const k = x - y
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const previousX = d === 0 ? 0 : at(previousK)
    const previousY = previousX - previousK
    while (x > previousX && y > previousY) {
      ops.push(" ")
      x--
      y--
    }
    if (d > 0) {
      ops.push(x === previousX ? "+" : "-")
      x = previousX
      y = previousY
    }
  }
  return ops.reverse()
}

/** The hunks of the change from `before` to `after` (none when they have the same lines). */
export const structuredPatch = (before: string, after: string): ReadonlyArray<Hunk> => {
  const a = linesOf(before)
  const b = linesOf(after)
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++
  const middleA = a.slice(prefix, a.length - suffix)
  const middleB = b.slice(prefix, b.length - suffix)
  const middle =
    myers(middleA, middleB) ?? [...middleA.map((): Op => "-"), ...middleB.map((): Op => "+")]
  const ops: Array<Op> = [...Array<Op>(prefix).fill(" "), ...middle, ...Array<Op>(suffix).fill(" ")]

  // Walk the script, each op with the line it stands for; group changes closer than 2·context into one hunk.
  const rows: Array<{ readonly op: Op; readonly line: string; readonly oldLine: number; readonly newLine: number }> = []
  let i = 0
  let j = 0
  for (const op of ops) {
    rows.push({ op, line: op === "+" ? b[j]! : a[i]!, oldLine: i, newLine: j })
    if (op !== "+") i++
    if (op !== "-") j++
  }
  const hunks: Array<Hunk> = []
  let index = 0
  while (index < rows.length) {
    if (rows[index]!.op === " ") {
      index++
      continue
    }
    const start = Math.max(0, index - contextLines)
    let end = index
    // Extend while the next change is within 2·context unchanged lines.
    for (;;) {
      while (end < rows.length && rows[end]!.op !== " ") end++
      let gap = end
      while (gap < rows.length && rows[gap]!.op === " ") gap++
      if (gap < rows.length && gap - end <= 2 * contextLines) end = gap
      else {
        end = Math.min(rows.length, end + contextLines)
        break
      }
    }
    const slice = rows.slice(start, end)
    const oldLines = slice.filter((row) => row.op !== "+").length
    const newLines = slice.filter((row) => row.op !== "-").length
    const first = slice[0]!
    hunks.push({
      oldStart: first.oldLine + 1,
      oldLines,
      newStart: first.newLine + 1,
      newLines,
      lines: slice.map((row) => `${row.op}${row.line}`)
    })
    index = end
  }
  return hunks
}

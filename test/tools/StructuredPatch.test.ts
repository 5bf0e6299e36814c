import { describe, expect, it } from "vitest"
import { maxEditDistance, structuredPatch } from "../../src/tools/StructuredPatch.js"

const lines = (count: number, name = (index: number) => `line ${index}`) =>
  Array.from({ length: count }, (_, index) => name(index + 1)).join("\n") + "\n"

/** Applies hunks to a text (the check that a patch says what changed). */
const apply = (before: string, hunks: ReturnType<typeof structuredPatch>): string => {
  const source = before === "" ? [] : before.replace(/\n$/, "").split("\n")
  const out: Array<string> = []
  let next = 0
  for (const hunk of hunks) {
    const start = hunk.oldStart - 1
    while (next < start) out.push(source[next++] ?? "")
    for (const line of hunk.lines) {
      if (line.startsWith("+")) out.push(line.slice(1))
      else {
        expect(source[next]).toBe(line.slice(1))
        if (line.startsWith(" ")) out.push(line.slice(1))
        next++
      }
    }
  }
  while (next < source.length) out.push(source[next++] ?? "")
  return out.length === 0 ? "" : out.join("\n") + "\n"
}

/** The length of the longest common subsequence (dynamic programming: the slow, obviously right way). */
const longestCommon = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  let row = new Array<number>(b.length + 1).fill(0)
  for (const x of a) {
    const next = [0]
    for (const [j, y] of b.entries()) next.push(x === y ? (row[j] ?? 0) + 1 : Math.max(row[j + 1] ?? 0, next[j] ?? 0))
    row = next
  }
  return row[b.length] ?? 0
}

describe("structuredPatch", () => {
  it("one changed line: a hunk with 3 lines of context either side, as jsdiff makes it", () => {
    const before = lines(10)
    const after = before.replace("line 5\n", "line five\n")
    expect(structuredPatch(before, after)).toEqual([
      {
        oldStart: 2,
        oldLines: 7,
        newStart: 2,
        newLines: 7,
        lines: [" line 2", " line 3", " line 4", "-line 5", "+line five", " line 6", " line 7", " line 8"]
      }
    ])
  })

  it("changes far apart are separate hunks; close ones share one", () => {
    const before = lines(30)
    const far = before.replace("line 3\n", "THREE\n").replace("line 25\n", "TWENTY-FIVE\n")
    expect(structuredPatch(before, far).map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines])).toEqual([
      [1, 6, 1, 6],
      [22, 7, 22, 7]
    ])
    const close = before.replace("line 10\n", "TEN\n").replace("line 16\n", "SIXTEEN\n")
    expect(structuredPatch(before, close).map((hunk) => [hunk.oldStart, hunk.oldLines])).toEqual([[7, 13]])
  })

  it("a new file, an emptied file, an insertion, and no change", () => {
    expect(structuredPatch("", "a\nb\n")).toEqual([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ["+a", "+b"] }])
    expect(structuredPatch("a\nb\n", "")).toEqual([{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 0, lines: ["-a", "-b"] }])
    expect(structuredPatch("a\nc\n", "a\nb\nc\n")).toEqual([{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [" a", "+b", " c"] }])
    expect(structuredPatch("same\n", "same\n")).toEqual([])
  })

  it("is a minimal patch that turns the old text into the new one", () => {
    let seed = 11
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
    for (let round = 0; round < 300; round++) {
      const before = Array.from({ length: Math.floor(random() * 40) }, () => `l${Math.floor(random() * 5)}`)
      const after = before.flatMap((line) => (random() < 0.1 ? [] : random() < 0.1 ? [line, "new"] : [line]))
      const text = (list: ReadonlyArray<string>) => (list.length === 0 ? "" : list.join("\n") + "\n")
      const hunks = structuredPatch(text(before), text(after))
      expect(apply(text(before), hunks)).toBe(text(after))
      const changed = hunks.flatMap((hunk) => hunk.lines).filter((line) => !line.startsWith(" ")).length
      expect(changed).toBe(before.length + after.length - 2 * longestCommon(before, after))
    }
  })

  it("past the edit-distance bound, the changed middle is reported whole (still a correct patch)", () => {
    const count = maxEditDistance + 10
    const before = lines(count, (index) => `old ${index}`)
    const after = lines(count, (index) => `new ${index}`)
    const hunks = structuredPatch(`keep\n${before}keep\n`, `keep\n${after}keep\n`)
    expect(hunks).toHaveLength(1)
    expect(hunks[0]?.lines.filter((line) => line.startsWith("-"))).toHaveLength(count)
    expect(apply(`keep\n${before}keep\n`, hunks)).toBe(`keep\n${after}keep\n`)
  })
})

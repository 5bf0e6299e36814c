import * as v8 from "node:v8"
import { describe, expect, it } from "vitest"
import { makeIdleCollector } from "../../src/ui/IdleCollector.js"

describe("IdleCollector", () => {
  it("collects once the heap holds far more than the last collection kept, and not before", () => {
    const collect = makeIdleCollector(8 * 1024 * 1024)
    expect(collect).toBeDefined()
    // Garbage: 40 MB of strings made and dropped.
    let garbage: Array<string> | undefined = Array.from({ length: 40_000 }, (_, index) => `${index}`.padEnd(1000, "x"))
    expect(garbage.length).toBe(40_000)
    garbage = undefined
    const before = v8.getHeapStatistics()
    expect(collect?.()).toBe(true)
    const after = v8.getHeapStatistics()
    expect(after.used_heap_size).toBeLessThan(before.used_heap_size - 20 * 1024 * 1024)
    // The emptied pages are given back, not kept for later.
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size - 20 * 1024 * 1024)
    // Just collected: nothing to do until the heap grows again.
    expect(collect?.()).toBe(false)
  })
})

import * as v8 from "node:v8"
import { describe, expect, it } from "vitest"
import { makeIdleCollector } from "../../src/ui/IdleCollector.js"

describe("IdleCollector", () => {
  it("collects once the heap holds far more than the last collection kept, and not before", () => {
    const collect = makeIdleCollector(8 * 1024 * 1024)
    expect(collect).toBeDefined()
    // Garbage: 40 MB of arrays of doubles (8 bytes an element on every V8; strings could be shared or cons cells),
    // made and dropped.
    let garbage: Array<Array<number>> | undefined = Array.from({ length: 5_000 }, (_, index) => new Array<number>(1000).fill(index + 0.5))
    expect(garbage.length).toBe(5_000)
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

/**
 * A full collection once a turn is over, when the heap holds much more than what the last one kept. What a long
 * interactive session keeps is its conversation (a few KB a turn, dropped by /compact: heap snapshots show nothing
 * else growing), but V8 left alone lets the garbage of streamed answers pile up to many times that before
 * collecting it (RSS 63 → 160 MB over 600 turns, not flat after /compact). Called while the user reads the answer,
 * never during one; a collection takes ~10 ms.
 */
import * as v8 from "node:v8"
import * as vm from "node:vm"

/** Heap beyond twice what the last collection kept, past which the next idle moment collects. */
const defaultSlackBytes = 16 * 1024 * 1024

/**
 * A function that collects when the heap (its pages, garbage included) has grown past twice what was kept plus `slackBytes` (and says whether it
 * did); undefined when V8's collector cannot be reached.
 */
export const makeIdleCollector = (slackBytes: number = defaultSlackBytes): (() => boolean) | undefined => {
  let gc: unknown
  try {
    // Exposed to new contexts only: the program's own global gets no `gc`.
    v8.setFlagsFromString("--expose-gc")
    gc = vm.runInNewContext("gc")
  } catch {
    return undefined
  }
  if (typeof gc !== "function") return undefined
  const collect = gc
  let kept = v8.getHeapStatistics().used_heap_size
  return () => {
    if (v8.getHeapStatistics().total_heap_size < kept * 2 + slackBytes) return false
    // A memory-reducing collection: the heap's emptied pages go back to the system too (a regular one keeps them).
    collect({ type: "major", execution: "sync", flavor: "last-resort" })
    kept = v8.getHeapStatistics().used_heap_size
    return true
  }
}

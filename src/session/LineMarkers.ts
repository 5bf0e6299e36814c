/**
 * Which lines of a transcript can matter to its totals and prompts, told from their JSON without parsing it: on a
 * line's text, or natively on its bytes before (instead of) decoding it.
 */
import { contains, view } from "./JsonlReader.js"

/** The JSON strings `mayCount` looks for, each made into what a search of a line's text or bytes needs. */
const byMarker = <A>(make: (quoted: string) => A) => ({
  assistant: make('"assistant"'),
  compact_boundary: make('"compact_boundary"'),
  user: make('"user"'),
  tool_result: make('"tool_result"')
})
type Marker = keyof ReturnType<typeof byMarker>
const inText = byMarker((quoted) => quoted)
// Searched natively in the line's bytes, without decoding it.
export const inBytes = byMarker(contains)

/**
 * Whether a line may be an entry the totals count or a prompt (what starts an exchange): an assistant response, a
 * compact boundary (it records its summary request's cost), or a user entry that is no tool result, told by `has`
 * (whether the line holds a marker). The test is on the JSON: a string value `"user"`, `"assistant"` or
 * `"tool_result"` cannot occur inside another string (its quotes would be escaped), so no such entry is missed; a
 * line it lets through is parsed and looked at. One rule for a line's text and for its bytes, so the two agree.
 */
const mayCountBy = (has: (marker: Marker) => boolean): boolean =>
  has("assistant") || has("compact_boundary") || (has("user") && !has("tool_result"))

export const mayCount = (text: string): boolean => mayCountBy((marker) => text.includes(inText[marker]))

// `mayCount` on a line's bytes, before (instead of) decoding it.
export const mayCountBytes = (bytes: Uint8Array): boolean => {
  const buffer = view(bytes)
  return mayCountBy((marker) => inBytes[marker](buffer))
}

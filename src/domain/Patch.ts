/**
 * A hunk of a file change's line diff, as Claude Code reports it (`structuredPatch`): 1-based starts, each line
 * prefixed by " ", "-" or "+". Made by src/tools/StructuredPatch.ts; carried by ToolEnded events for renderers.
 */
export interface Hunk {
  readonly oldStart: number
  readonly oldLines: number
  readonly newStart: number
  readonly newLines: number
  readonly lines: ReadonlyArray<string>
}

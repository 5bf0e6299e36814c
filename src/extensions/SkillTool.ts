/**
 * Skill {skill, args?}: Claude Code's tool that loads a skill (or a command: commands are skills too) into the
 * conversation. Its result is "Launching skill: <name>" and a text block with the skill's base directory (so its
 * scripts can be run) and its body with the arguments put in (Arguments.ts), each `` !`cmd` `` in it replaced by its
 * output: run as a command's are (CommandExpansion), through the caller's Bash tool and the Bash permission rules
 * (the skill's own grants included); a refused or failing one makes the call an error naming why.
 *
 * A skill with `allowed-tools` is asked about (its call names the skill, so a rule `Skill(name)` allows it; under
 * `-p` nobody answers, and the call is refused without one); once loaded, its `allowed-tools` are granted for the
 * rest of the session (session allow rules: Grants.ts). A skill without them runs without asking: it is text.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { homedir } from "node:os"
import * as Tool from "../tools/Tool.js"
import { fromAnyTools, ToolRegistry } from "../tools/ToolRegistry.js"
import * as CommandExpansion from "./CommandExpansion.js"
import { bodyOf, type Loaded, invocable, skillToolName } from "./Extensions.js"
import { Permissions } from "../permissions/Permissions.js"
import * as Grants from "./Grants.js"

export const name = skillToolName

// Built by `make` only: a session without skills builds no schema for them.
const skillInput = () =>
  Schema.Struct({
    skill: Schema.String.annotate({ description: 'The skill name. E.g., "commit", "review-pr", or "pdf"' }),
    args: Schema.optional(Schema.String.annotate({ description: "Optional arguments for the skill" }))
  })
export type SkillInput = ReturnType<typeof skillInput>["Type"]

const description = `Execute a skill within the main conversation

When users ask you to perform tasks, check if any of the available skills match. Skills provide specialized capabilities and domain knowledge.

How to invoke:
- Use this tool with the skill name and optional arguments
- Examples:
  - \`skill: "pdf"\` - invoke the pdf skill
  - \`skill: "commit", args: "-m 'Fix bug'"\` - invoke with arguments

Important:
- The available skills are listed in system reminders in the conversation
- When a skill matches the user's request, invoke it BEFORE generating any other response about the task
- Do not invoke a skill that is already running`

/** The name as the model may write it (`/review` is `review`). */
const nameOf = (input: SkillInput) => input.skill.trim().replace(/^\//, "")

/**
 * The Skill tool over `loaded`'s skills and commands. Its `` !`cmd` `` run with the Bash tool of the call's context
 * (a subagent's own tools: one without Bash runs none).
 */
export const make = (loaded: Loaded): Tool.Tool<SkillInput, Permissions> => {
  const available = invocable(loaded)
  const byName = new Map(available.map((extension) => [extension.name, extension]))
  return Tool.fromEffect({
    name,
    description,
    input: skillInput(),
    readOnly: true,
    // A skill that grants tools names itself, so that it is asked about (and `Skill(name)` rules match it).
    target: (input) => {
      const extension = byName.get(nameOf(input))
      return extension !== undefined && extension.allowedTools.length > 0 ? { _tag: "Command", command: extension.name } : { _tag: "None" }
    },
    run: (input, context) =>
      Effect.gen(function* () {
        const extension = byName.get(nameOf(input))
        if (extension === undefined) {
          return yield* Tool.fail(
            name,
            `Unknown skill: ${nameOf(input)}. Available skills: ${available.map((item) => item.name).join(", ") || "none"}`,
            "not_found"
          )
        }
        const permissions = yield* Permissions
        const what = `the skill ${extension.name}`
        yield* Grants.grant(permissions, extension.allowedTools, what)
        const registry = yield* Effect.serviceOption(ToolRegistry)
        const body = yield* CommandExpansion.runShellCommands(
          {
            registry: Option.getOrElse(registry, () => fromAnyTools([])),
            permissions,
            // Only `@path` reads it, which a skill's body does not attach.
            home: homedir(),
            cwd: context.cwd,
            sessionId: context.sessionId
          },
          bodyOf(extension, input.args ?? ""),
          what
        ).pipe(Effect.mapError((refusal) => Tool.fail(name, refusal.message)))
        return Tool.result(
          [
            { type: "text", text: `Launching skill: ${extension.name}` },
            { type: "text", text: body }
          ],
          { skill: extension.name, path: extension.path, allowedTools: extension.allowedTools }
        )
      })
  })
}

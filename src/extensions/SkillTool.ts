/**
 * Skill {skill, args?}: Claude Code's tool that loads a skill (or a command: commands are skills too) into the
 * conversation. Its result is "Launching skill: <name>" and a text block with the skill's base directory (so its
 * scripts can be run) and its body with the arguments put in (Arguments.ts).
 *
 * A skill with `allowed-tools` is asked about (its call names the skill, so a rule `Skill(name)` allows it; under
 * `-p` nobody answers, and the call is refused without one); once loaded, its `allowed-tools` are granted for the
 * rest of the session (session allow rules: Grants.ts). A skill without them runs without asking: it is text.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Tool from "../tools/Tool.js"
import * as Arguments from "./Arguments.js"
import { type Extension, type Loaded, invocable } from "./Extensions.js"
import { Permissions } from "../permissions/Permissions.js"
import * as Grants from "./Grants.js"

export const name = "Skill"

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

/** The text a loaded skill or command gives the model (the second block of the Skill result; `/skill` expands the same). */
export const bodyOf = (extension: Extension, args: string): string => {
  const body = Arguments.substitute(extension.body, args)
  return extension._tag === "Skill" ? `Base directory for this skill: ${extension.directory}\n\n${body}` : body
}

/** The Skill tool over `loaded`'s skills and commands. */
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
    run: (input) =>
      Effect.gen(function* () {
        const extension = byName.get(nameOf(input))
        if (extension === undefined) {
          return yield* Tool.fail(
            name,
            `Unknown skill: ${nameOf(input)}. Available skills: ${available.map((item) => item.name).join(", ") || "none"}`,
            "not_found"
          )
        }
        yield* Grants.grant(yield* Permissions, extension.allowedTools, `the skill ${extension.name}`)
        return Tool.result(
          [
            { type: "text", text: `Launching skill: ${extension.name}` },
            { type: "text", text: bodyOf(extension, input.args ?? "") }
          ],
          { skill: extension.name, path: extension.path, allowedTools: extension.allowedTools }
        )
      })
  })
}

/**
 * Plan mode (`--permission-mode plan`): the model is told it is active (a system reminder with each prompt), and
 * Permissions refuses everything that is not read-only, even where a rule allows it. Leaving it is the
 * ExitPlanMode tool, offered only where someone can answer (a host: the SDK's `--permission-prompt-tool stdio`):
 * the call is a permission ask with the plan, and an allow switches the session to default mode.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Tool from "../tools/Tool.js"

export const reminder =
  "Plan mode is active. The user does not want you to make any changes yet: do not edit or write files, run " +
  "commands that change anything, or change the system in any way (the session refuses it). Research with the " +
  "read-only tools, then present your plan. " +
  "When your plan is ready, call ExitPlanMode with it if that tool is available; otherwise end your turn with the plan."

export const toolName = "ExitPlanMode"

const Input = Schema.Struct({
  plan: Schema.String.annotate({ description: "The plan to run, in markdown: concise, step by step." })
})

/**
 * The ExitPlanMode tool. Not read-only: in plan mode its call is asked about (the plan goes to the host with the
 * ask); an allow runs it, which leaves plan mode through `exit` (the session's setPermissionMode("default")).
 */
export const exitPlanModeTool = (exit: Effect.Effect<void, { readonly message: string }>) =>
  Tool.fromEffect({
    name: toolName,
    description:
      "Use this tool when you are in plan mode and have finished planning: it presents the plan to the user for " +
      "approval. Only for tasks that need writing code; not for research.",
    input: Input,
    readOnly: false,
    target: (input) => ({ _tag: "Command", command: input.plan }),
    run: () =>
      exit.pipe(
        Effect.as(Tool.result("The user approved your plan. Plan mode is off: you can now start coding.")),
        Effect.catch((error) => Effect.fail(Tool.fail(toolName, `Could not leave plan mode: ${error.message}`)))
      )
  })

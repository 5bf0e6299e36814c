/**
 * TodoWrite {todos}: Claude Code's task list. The model sends the whole list each time; it is kept per session
 * in `TodoStore` (a SubscriptionRef, so renderers can follow `changes`), and the result's `data` is
 * `{ oldTodos, newTodos }` as in Claude Code's tool result, for the loop to emit as an event. As in Claude Code,
 * a list whose items are all completed is cleared from the store once written.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { TodoStore } from "../TodoStore.js"
import * as Tool from "../Tool.js"

const NonEmpty = (description: string) =>
  Schema.String.check(
    Schema.makeFilter((value: string) => value.length > 0, {
      description,
      jsonSchema: { type: "string", minLength: 1 },
      message: "must not be empty"
    })
  )

export const TodoStatus = Schema.Literals(["pending", "in_progress", "completed"])
export type TodoStatus = typeof TodoStatus.Type

export const Todo = Schema.Struct({
  content: NonEmpty("The task, in the imperative form (e.g. \"Run tests\")"),
  status: TodoStatus,
  activeForm: NonEmpty("The task in the present continuous form shown while it runs (e.g. \"Running tests\")")
})
export type Todo = typeof Todo.Type

export interface TodoWriteData {
  readonly oldTodos: ReadonlyArray<Todo>
  readonly newTodos: ReadonlyArray<Todo>
}

export { type Interface, TodoStore } from "../TodoStore.js"

const TodoWriteInput = Schema.Struct({
  todos: Schema.Array(Todo).annotate({ description: "The updated todo list" })
})
export type TodoWriteInput = typeof TodoWriteInput.Type

const description = `Use this tool to create and manage a structured task list for your current coding session. This helps you track progress, organize complex tasks, and demonstrate thoroughness to the user.
It also helps the user understand the progress of the task and overall progress of their requests.

## When to Use This Tool
Use this tool proactively in these scenarios:
1. Complex multi-step tasks - When a task requires 3 or more distinct steps or actions
2. Non-trivial and complex tasks - Tasks that require careful planning or multiple operations
3. User explicitly requests todo list - When the user directly asks you to use the todo list
4. User provides multiple tasks - When users provide a list of things to be done (numbered or comma-separated)
5. After receiving new instructions - Immediately capture user requirements as todos
6. When you start working on a task - Mark it as in_progress BEFORE beginning work. Ideally you should only have one todo as in_progress at a time
7. After completing a task - Mark it as completed and add any new follow-up tasks discovered during implementation

## When NOT to Use This Tool
Skip using this tool when:
1. There is only a single, straightforward task
2. The task is trivial and tracking it provides no organizational benefit
3. The task can be completed in less than 3 trivial steps
4. The task is purely conversational or informational

## Task States and Management
1. **Task States**: Use these states to track progress:
   - pending: Task not yet started
   - in_progress: Currently working on (limit to ONE task at a time)
   - completed: Task finished successfully

   Each task has two forms: content (imperative, e.g. "Run tests") and activeForm (present continuous, e.g. "Running tests").

2. **Task Management**:
   - Update task status in real-time as you work
   - Mark tasks complete IMMEDIATELY after finishing (don't batch completions)
   - Exactly ONE task must be in_progress at any time (not less, not more)
   - Complete current tasks before starting new ones
   - Remove tasks that are no longer relevant from the list entirely

3. **Task Completion Requirements**:
   - ONLY mark a task as completed when you have FULLY accomplished it
   - If you encounter errors, blockers, or cannot finish, keep the task as in_progress
   - Never mark a task as completed if tests are failing, implementation is partial, or you encountered unresolved errors

When in doubt, use this tool. Being proactive with task management demonstrates attentiveness and ensures you complete all requirements successfully.`

export const TodoWriteTool = Tool.fromEffect({
  name: "TodoWrite",
  description,
  input: TodoWriteInput,
  run: Effect.fn("TodoWrite.run")(function* (input: TodoWriteInput) {
    const store = yield* TodoStore
    // All done: the list has served its purpose, and the next task starts from an empty one.
    const stored = input.todos.length > 0 && input.todos.every((todo) => todo.status === "completed") ? [] : input.todos
    const oldTodos = yield* store.set(stored)
    const data: TodoWriteData = { oldTodos, newTodos: input.todos }
    return Tool.result(
      "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
      data,
      { _tag: "TodosUpdated", todos: input.todos }
    )
  })
})

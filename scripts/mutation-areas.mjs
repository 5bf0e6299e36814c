// The areas of `npm run mutate` (scripts/mutate.mjs, stryker.config.mjs): each area's modules and the unit tests
// written for them. Stryker runs once per area; a mutant of a module-level constant (a protected name, a table entry)
// re-runs every test of its area, so small areas with their own tests keep those runs short.

/**
 * `ignoreStatic`: leave out the mutants of module-level constants (Stryker's static mutants), each of which re-runs
 * every test of the area; `WEFT_MUTATE_STATIC=1` takes them in anyway.
 * @type {Record<string, { mutate: Array<string>, tests: Array<string>, ignoreStatic?: boolean }>}
 */
export const areas = {
  paths: {
    mutate: ["src/permissions/Rules.ts", "src/permissions/PathGuard.ts"],
    tests: ["test/permissions/Rules.test.ts", "test/permissions/PathGuard.test.ts"]
  },
  writes: {
    mutate: [
      "src/permissions/BashCheck.ts",
      "src/permissions/ShellCheck.ts",
      "src/permissions/ShellWrites.ts",
      "src/permissions/ProgramWrites.ts"
    ],
    tests: [
      "test/permissions/BashCheck.test.ts",
      "test/permissions/ShellCheck.test.ts",
      "test/permissions/ShellWrites.test.ts",
      "test/permissions/ProgramWrites.test.ts",
      "test/permissions/ProgramWrites.grammar.test.ts"
    ],
    // The writing programs' option tables are 270 static mutants, three quarters of the area's run time (about an
    // hour on two cores); ProgramWrites.test.ts reads each program's options row by row.
    ignoreStatic: true
  },
  syntax: {
    mutate: ["src/permissions/ShellSyntax.ts"],
    tests: ["test/permissions/ShellSyntax.test.ts", "test/permissions/ShellCommand.test.ts"]
  },
  bash: {
    mutate: ["src/permissions/ShellCommand.ts"],
    tests: [
      "test/permissions/ShellSyntax.test.ts",
      "test/permissions/ShellCommand.test.ts",
      "test/permissions/ShellRules.test.ts",
      "test/permissions/ShellWrappers.test.ts",
      "test/permissions/Permissions.bash.test.ts"
    ],
    ignoreStatic: true
  },
  // The wrappers on their own: their option tables are static mutants (evaluated when the module loads, and again
  // by the first test that loads it, so leaving static mutants out would count them as surviving), each re-run
  // against these two files only. ShellWrappers.test.ts reads every wrapper option from the programs' manuals.
  wrappers: {
    mutate: ["src/permissions/ShellWrappers.ts"],
    tests: ["test/permissions/ShellWrappers.test.ts", "test/permissions/ShellCommand.test.ts"]
  },
  hooks: {
    mutate: ["src/hooks/CommandHooks.ts"],
    tests: ["test/hooks/**/*.test.ts"]
  },
  secrets: {
    mutate: ["src/platform/Credentials.ts", "src/platform/ChildEnvironment.ts"],
    tests: ["test/platform/**/*.test.ts", "test/permissions/GitSafety.test.ts"]
  },
  stream: {
    mutate: ["src/model/Sse.ts", "src/model/Retry.ts"],
    tests: [
      "test/model/Sse.test.ts",
      "test/model/Sse.frames.test.ts",
      "test/model/Retry.test.ts",
      "test/model/Retry.policy.test.ts",
      "test/model/ApiClientRetry.test.ts"
    ]
  }
}

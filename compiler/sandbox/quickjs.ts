/**
 * The sandbox where author code runs (ARCHITECTURE decision 7): QuickJS compiled to WebAssembly, one
 * module per thread, a fresh runtime and context per page. Limits are set before any author code runs:
 * a memory cap, a stack cap and a work budget counted by the interrupt handler (ARCHITECTURE decision
 * 11: work, never wall time, so a loaded machine builds the same page the same way). No host function is
 * passed in; code and props go in as strings and the element tree comes back as a JSON string, so the
 * sandbox has no filesystem, network, timers or `process` to reach.
 */
import type {
  QuickJSContext,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import { sandboxPrelude } from './prelude.js'

/**
 * Heap for one page's components: real ones use well under a megabyte. QuickJS's own limit only sees
 * single large requests in this build (it cannot measure block sizes), so the module also gets a
 * WebAssembly memory that cannot grow past its start plus this much: past it, allocation fails inside.
 */
export const SANDBOX_MEMORY_BYTES = 32 * 1024 * 1024
/** QuickJS stack; deeper recursion is a stack overflow error inside the sandbox, not in the host. */
export const SANDBOX_STACK_BYTES = 256 * 1024
/**
 * Steps all code components of one page may take together, counted from after the sandbox's own
 * prelude. QuickJS calls the interrupt handler once every 10,000 steps (function calls and loop
 * iterations, `JS_INTERRUPT_COUNTER_INIT`), so the budget is counted in those checks: the same code
 * stops at the same step on any machine under any load. Real pages take one or two checks; a tight
 * loop reaches the limit in about a second here (1,500 checks a second, 200 for string building).
 */
export const SANDBOX_STEP_LIMIT = 10_000_000
const STEPS_PER_CHECK = 10_000
/** Largest element tree (as JSON) one component may return. */
export const SANDBOX_OUTPUT_BYTES = 4 * 1024 * 1024

/** QuickJS's own start-up memory (16 MB), in 64 KiB WebAssembly pages. */
const WASM_START_PAGES = 256
const WASM_PAGE_BYTES = 64 * 1024

let quickjs: Promise<QuickJSWASMModule> | undefined

/** Sandboxes opened by this thread, for tests and benchmarks to check that plain pages open none. */
export const sandboxStats = { opened: 0 }

/**
 * The thread's QuickJS module, loaded on first use (about 15 ms) and reused by every page; its code is
 * imported then too, so threads that render only plain pages never load it.
 */
function loadQuickJS(): Promise<QuickJSWASMModule> {
  quickjs ??= (async () => {
    const [core, releaseSync] = await Promise.all([
      import('quickjs-emscripten-core'),
      import('@jitl/quickjs-wasmfile-release-sync'),
    ])
    const wasmMemory = new WebAssembly.Memory({
      initial: WASM_START_PAGES,
      maximum: WASM_START_PAGES + SANDBOX_MEMORY_BYTES / WASM_PAGE_BYTES,
    })
    // The package's types describe its CommonJS build; imported as ESM its default export is the variant.
    const variant = releaseSync.default as unknown as QuickJSSyncVariant
    return core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmMemory }))
  })()
  return quickjs
}

export interface SandboxError {
  /** `Error`, `TypeError`, … as thrown inside the sandbox. */
  name: string
  message: string
  stack: string
  /** Why the sandbox stopped it, when a limit did. */
  limit?: 'steps' | 'memory'
  /** True when an earlier call on the page hit the limit and this one did not run. */
  earlier?: boolean
}

export type SandboxResult = { ok: true; value: string } | { ok: false; error: SandboxError }

/** One page's sandbox: evaluate code in order, then close it. */
export class PageSandbox {
  #runtime: QuickJSRuntime
  #context: QuickJSContext
  /** Interrupt checks left before the page's budget is used up; counted only once the prelude ran. */
  #checksLeft = Number.POSITIVE_INFINITY
  #spent: SandboxError | undefined

  private constructor(runtime: QuickJSRuntime, context: QuickJSContext) {
    this.#runtime = runtime
    this.#context = context
    runtime.setInterruptHandler(() => --this.#checksLeft < 0)
  }

  static async open(builtins: readonly string[]): Promise<PageSandbox> {
    const module = await loadQuickJS()
    sandboxStats.opened++
    const runtime = module.newRuntime()
    runtime.setMemoryLimit(SANDBOX_MEMORY_BYTES)
    runtime.setMaxStackSize(SANDBOX_STACK_BYTES)
    const sandbox = new PageSandbox(runtime, runtime.newContext())
    const prelude = sandbox.evaluate(sandboxPrelude(builtins), 'sandbox:prelude')
    if (!prelude.ok) {
      sandbox.close()
      throw new Error(`The sandbox prelude failed: ${prelude.error.message}`)
    }
    // The budget is the author's: the prelude's own work never counts against it.
    sandbox.#checksLeft = SANDBOX_STEP_LIMIT / STEPS_PER_CHECK
    return sandbox
  }

  /**
   * Run `code` and return its value as a string. Once a limit is hit the page's sandbox is spent:
   * its state is unknown, so later calls fail at once with the same reason.
   */
  evaluate(code: string, filename: string): SandboxResult {
    if (this.#spent) return { ok: false, error: { ...this.#spent, stack: '', earlier: true } }
    const context = this.#context
    const result = context.evalCode(code, filename)
    if (result.error) {
      const error = readError(context.dump(result.error))
      result.error.dispose()
      if (error.message === 'out of memory') error.limit = 'memory'
      else if (error.message === 'interrupted' || this.#checksLeft < 0) error.limit = 'steps'
      if (error.limit) this.#spent = error
      return { ok: false, error }
    }
    const value = context.typeof(result.value) === 'string' ? context.getString(result.value) : ''
    result.value.dispose()
    if (value.length > SANDBOX_OUTPUT_BYTES) {
      return {
        ok: false,
        error: {
          name: 'RangeError',
          message: `output of ${value.length} characters, over the ${SANDBOX_OUTPUT_BYTES} limit`,
          stack: '',
        },
      }
    }
    return { ok: true, value }
  }

  close(): void {
    try {
      // Settle promises author code left behind (an `import()`), so the runtime frees cleanly.
      const jobs = this.#runtime.executePendingJobs(1000)
      if (jobs.error) jobs.error.dispose()
      this.#context.dispose()
      this.#runtime.dispose()
    } catch {
      // A runtime that cannot be freed may have broken its module: the next page loads a new one.
      quickjs = undefined
    }
  }
}

function readError(dumped: unknown): SandboxError {
  if (dumped && typeof dumped === 'object') {
    const { name, message, stack } = dumped as Record<string, unknown>
    return {
      name: typeof name === 'string' ? name : 'Error',
      message: typeof message === 'string' ? message : String(dumped),
      stack: typeof stack === 'string' ? stack : '',
    }
  }
  return { name: 'Error', message: `threw ${String(dumped)}`, stack: '' }
}

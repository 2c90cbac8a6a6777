/**
 * A thread's own scheduling priority, on Linux. Node's `os.setPriority` takes a process id, and Linux's
 * setpriority applies to the one thread a thread id names: `/proc/thread-self` gives the calling
 * thread's. Elsewhere (no `/proc/thread-self`) nothing changes.
 */
import { readlinkSync } from 'node:fs'
import { constants, setPriority } from 'node:os'

/** The calling thread's id (`/proc/thread-self` → `<pid>/task/<tid>`), or undefined off Linux. */
export function currentThreadId(): number | undefined {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1))
    return Number.isInteger(threadId) ? threadId : undefined
  } catch {
    return undefined
  }
}

/**
 * Gives the calling thread alone `niceness` (10, "below normal", by default); true when it did.
 * Raising niceness needs no privilege.
 */
export function lowerThreadPriority(niceness: number = constants.priority.PRIORITY_BELOW_NORMAL): boolean {
  const threadId = currentThreadId()
  if (threadId === undefined) return false
  try {
    setPriority(threadId, niceness)
    return true
  } catch {
    return false
  }
}

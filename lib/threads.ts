/**
 * The calling thread as Linux knows it: its kernel id, which `/proc/thread-self` names, and its own
 * scheduling priority. Node 20 gives neither (`os.setPriority` takes a process id; Linux's setpriority
 * applies to the one thread a thread id names). Elsewhere there is no id and nothing changes.
 */
import { spawnSync } from 'node:child_process'
import { readlinkSync } from 'node:fs'
import { constants, setPriority } from 'node:os'

/** The calling thread's kernel id, or 0 where /proc does not say (not Linux). */
export function currentThreadId(): number {
  try {
    // `1234/task/5678`: this process's id, then the calling thread's.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1))
    return Number.isInteger(tid) && tid > 0 ? tid : 0
  } catch {
    return 0
  }
}

/**
 * Gives the calling thread alone `niceness` (10, "below normal", by default); true when it did.
 * Raising niceness needs no privilege.
 */
export function lowerThreadPriority(niceness: number = constants.priority.PRIORITY_BELOW_NORMAL): boolean {
  const threadId = currentThreadId()
  if (threadId === 0) return false
  try {
    setPriority(threadId, niceness)
    return true
  } catch {
    return false
  }
}

/**
 * Puts the calling thread alone in Linux's `SCHED_IDLE` class: it runs only when no other thread wants
 * its core, and the kernel preempts it the moment one does. A niceness only weighs the share of a core;
 * even at 19 a thread that has just woken runs out its slice while a reader's request waits. Node has no
 * call for it, so util-linux's `chrt` makes the system call (`sched_setscheduler` on the thread's id),
 * once, when the thread starts. True when it did; false where there is no `chrt` or no Linux.
 */
export function idleThreadPolicy(): boolean {
  const threadId = currentThreadId()
  if (threadId === 0) return false
  return spawnSync('chrt', ['--idle', '--pid', '0', String(threadId)], { stdio: 'ignore' }).status === 0
}

/**
 * CPU time of one thread, so a page's limit counts the work its render did, not how long the machine
 * took to do it (ARCHITECTURE decision 11). Node 20 has no per-thread CPU clock, so on Linux a render
 * thread names its kernel thread id (`currentThreadId`, lib/threads.ts) and the pool reads that
 * thread's user and system time from `/proc/self/task/<tid>/stat`. Elsewhere there is no such file:
 * the pool falls back to wall time and says so in the limit's message.
 */
import { readFileSync } from 'node:fs'

/** Linux's USER_HZ: /proc reports CPU time in these ticks (100 a second on every mainstream kernel). */
const TICKS_PER_SECOND = 100

/** CPU milliseconds thread `tid` of this process (or of process `pid`) has used, or undefined once it is gone. */
export function threadCpuMs(tid: number, pid: number | 'self' = 'self'): number | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1')
  } catch {
    return undefined
  }
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3,
  // utime 14 and stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined
}

// Loaded into every test file's process by test/run.js (`--import`): when the file's process exits, it
// appends the CPU seconds it used, with those of the child processes it waited for (docsctl, docs-server,
// npm, Chromium), to DOCS_TEST_CPU_FILE. Wall time says little on a loaded machine; CPU time says what a
// file costs whatever else runs, so the slowest-files report ranks by it.
import { appendFileSync, readFileSync } from 'node:fs'

const out = process.env.DOCS_TEST_CPU_FILE
const file = process.argv[1] ?? ''
if (out && file.endsWith('.test.js')) {
  process.on('exit', () => {
    let seconds
    try {
      // /proc/self/stat after the command's closing paren: utime, stime, cutime, cstime are fields 14–17
      // (11–14 from the state field), in clock ticks (100 a second on Linux).
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
      seconds = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / 100
    } catch {
      // No procfs (macOS): this process's own time only.
      const { user, system } = process.cpuUsage()
      seconds = (user + system) / 1e6
    }
    if (Number.isFinite(seconds)) appendFileSync(out, `${JSON.stringify({ file, seconds })}\n`)
  })
}

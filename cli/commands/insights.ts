import { Command, Option, UsageError } from 'clipanion'
import { formatReport } from '../insights/format.js'
import { apiUrlOption, jsonOption, projectOption, runForProject } from '../project-command.js'

const dayPattern = /^\d{4}-\d{2}-\d{2}$/

export class InsightsCommand extends Command {
  static override paths = [['insights']]
  static override usage = Command.Usage({
    category: 'Analytics',
    description: "Print a project's reader insights: views, searches, feedback, code copies and 404s",
    details: `
      Reads the daily counts docs-server keeps of its sites' readers (no cookie, no IP address, no
      third party; readers with Do-Not-Track or Global Privacy Control send nothing). The range is
      in UTC days, the last 30 by default. \`--off\` stops keeping new events; \`--on\` starts again.
    `,
    examples: [
      ['The last 30 days of the project in docs.json', 'docsctl insights'],
      ['One week, as JSON', 'docsctl insights --from 2026-03-01 --to 2026-03-07 --json'],
      ['Every table as one CSV file for a spreadsheet', 'docsctl insights --days 90 --csv > insights.csv'],
      ['The last 7 days, 50 rows a table', 'docsctl insights --days 7 --limit 50'],
      ['Stop keeping reader events', 'docsctl insights --off'],
    ],
  })

  from = Option.String('--from', { description: 'First day, YYYY-MM-DD (UTC)' })
  to = Option.String('--to', { description: 'Last day, YYYY-MM-DD (UTC; default: today)' })
  days = Option.String('--days', { description: 'The last N days, today included (default: 30)' })
  limit = Option.String('--limit', { description: 'Rows of each table, 1–500 (default: 20)' })
  on = Option.Boolean('--on', false, { description: 'Keep reader events of this project' })
  off = Option.Boolean('--off', false, { description: 'Keep no reader events of this project' })
  csv = Option.Boolean('--csv', false, {
    description:
      'Print every table as one CSV file (table,key,day,total,detail), as the dashboard exports it',
  })
  json = jsonOption('the report')
  project = projectOption()
  apiUrl = apiUrlOption()

  override execute(): Promise<number> {
    if (this.on && this.off) throw new UsageError('Give --on or --off, not both')
    if (this.csv && this.json) throw new UsageError('Give --csv or --json, not both')
    if (this.csv && (this.on || this.off))
      throw new UsageError('--csv prints a report; give it without --on or --off')
    for (const [flag, value] of [
      ['--from', this.from],
      ['--to', this.to],
    ] as const)
      if (value !== undefined && !dayPattern.test(value))
        throw new UsageError(`${flag} must be a day, YYYY-MM-DD (got "${value}")`)
    const days = this.days === undefined ? undefined : Number(this.days)
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 366))
      throw new UsageError(`--days must be a whole number from 1 to 366 (got "${this.days}")`)
    if (days !== undefined && this.from !== undefined) throw new UsageError('Give --days or --from, not both')
    const limit = this.limit === undefined ? undefined : Number(this.limit)
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500))
      throw new UsageError(`--limit must be a whole number from 1 to 500 (got "${this.limit}")`)
    return runForProject(this.context, this, async (client, project) => {
      if (this.on || this.off) {
        await client.setInsightsEnabled(project.id, this.on)
        this.context.stdout.write(
          `Insights of ${project.slug} are ${this.on ? 'on: reader events are kept' : 'off: no reader event is kept'}\n`,
        )
        return 0
      }
      const to = this.to ?? new Date().toISOString().slice(0, 10)
      const from =
        this.from ??
        (days === undefined
          ? undefined
          : new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10))
      const range = {
        ...(from === undefined ? {} : { from }),
        ...(this.to === undefined && from === undefined ? {} : { to }),
        ...(limit === undefined ? {} : { limit }),
      }
      if (this.csv) {
        this.context.stdout.write(await client.getInsightsCsv(project.id, range))
        return 0
      }
      const report = await client.getInsights(project.id, range)
      this.context.stdout.write(
        this.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, project.slug),
      )
      return 0
    })
  }
}

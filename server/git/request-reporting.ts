/**
 * One delivery of a pull/merge request, as its forge sees it: when the build starts, a GitHub check
 * run on the head commit (made once per commit, then updated in place); when the preview is ready,
 * the change report against the live site completes the check run and becomes the request's one
 * comment (GitLab: note), made on the first commit and edited on every later one. A forge that
 * refuses is logged; the preview stands whatever the forge says.
 */
import type { FastifyInstance } from 'fastify'
import type { DeploymentRow } from '../db/repositories/deployments.js'
import type { GitDeliveryRow, GitPullRequestRow } from '../db/repositories/git.js'
import type { ProjectRow } from '../db/repositories/projects.js'
import { reportHeadline } from '../previews/report-markdown.js'
import type { RequestForge } from './request-reports.js'

export class RequestReporting {
  private constructor(
    private readonly app: FastifyInstance,
    private readonly project: ProjectRow,
    private readonly delivery: GitDeliveryRow,
    private readonly number: number,
    private readonly forge: RequestForge | undefined,
    private pullRequest: GitPullRequestRow | undefined,
  ) {}

  static async open(
    app: FastifyInstance,
    project: ProjectRow,
    delivery: GitDeliveryRow,
    number: number,
    forge: RequestForge | undefined,
  ): Promise<RequestReporting> {
    const pullRequest = await app.repos.git.pullRequest(project.id, number)
    return new RequestReporting(app, project, delivery, number, forge, pullRequest)
  }

  /** The request's source branch, as its preview's deployment names it. */
  get headBranch(): string | undefined {
    return this.pullRequest?.head_branch
  }

  /** On GitHub the check run says what a commit status would. */
  get replacesStatuses(): boolean {
    return this.forge?.checkRuns !== undefined
  }

  get #name(): string {
    return `docs/${this.project.slug}`
  }

  async #quietly(what: string, call: () => Promise<void>): Promise<void> {
    try {
      await call()
    } catch (error) {
      this.app.log.warn({ err: error, deliveryId: this.delivery.id, request: this.number }, `${what} failed`)
    }
  }

  /** The check run of the head commit: made once per commit (a redelivery finds it). */
  async started(): Promise<void> {
    const checkRuns = this.forge?.checkRuns
    if (!checkRuns || this.pullRequest?.check_run_sha === this.delivery.commit_sha) return
    await this.#quietly('creating the check run', async () => {
      const id = await checkRuns.create(this.delivery.commit_sha, this.#name)
      await this.app.repos.git.updatePullRequest(this.project.id, this.number, {
        check_run_id: id,
        check_run_sha: this.delivery.commit_sha,
      })
      this.pullRequest = await this.app.repos.git.pullRequest(this.project.id, this.number)
    })
  }

  async #complete(outcome: Parameters<NonNullable<RequestForge['checkRuns']>['complete']>[1]): Promise<void> {
    const checkRuns = this.forge?.checkRuns
    const id = this.pullRequest?.check_run_id
    if (!checkRuns || !id || this.pullRequest?.check_run_sha !== this.delivery.commit_sha) return
    await this.#quietly('completing the check run', () => checkRuns.complete(id, outcome))
  }

  /** The request's one comment, made the first time and edited in place after. */
  async #comment(body: string): Promise<void> {
    const forge = this.forge
    if (!forge) return
    await this.#quietly('writing the request comment', async () => {
      const id = this.pullRequest?.comment_id
      if (id) return forge.comments.update(this.number, id, body)
      const created = await forge.comments.create(this.number, body)
      await this.app.repos.git.updatePullRequest(this.project.id, this.number, { comment_id: created })
    })
  }

  /** The preview is ready: its change report goes to the check run and the comment. Answers the headline. */
  async finished(deployment: DeploymentRow, previewUrl: string | null): Promise<string> {
    const { changeReports } = this.app
    const row = await changeReports.reportOf(this.project, deployment)
    const report = changeReports.present(this.project, deployment, row)
    const headline = reportHeadline(report)
    const problems = report.links.introduced.length + report.missingRedirects.length
    const commit = this.delivery.commit_sha.slice(0, 12)
    await this.#complete({
      conclusion: report.status === 'failed' ? 'neutral' : problems > 0 ? 'neutral' : 'success',
      title: headline,
      summary: report.summary,
      detailsUrl: previewUrl,
    })
    await this.#comment(
      `${report.summary}\n\n<sub>Preview of ${commit} · docs/${this.project.slug} · updated on every commit</sub>`,
    )
    return headline
  }

  async failed(detail: string): Promise<void> {
    await this.#complete({
      conclusion: 'failure',
      title: 'The docs build failed',
      summary: detail,
      detailsUrl: null,
    })
    await this.#comment(
      `### Changes against live\n\nThe preview of ${this.delivery.commit_sha.slice(0, 12)} could not be built: ${detail}`,
    )
  }
}

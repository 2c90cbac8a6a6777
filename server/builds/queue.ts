/**
 * The fair build queue: at most one build per project at a time, owners served round-robin (least
 * recently served first) and each owner's projects in turn the same way, so one user's fifteen pushes never hold another user's
 * one-page push. A project keeps only its newest waiting deployment; an older one is superseded.
 */

export interface QueuedBuild {
  ownerId: string
  projectId: string
  deploymentId: string
  /** Orders deployments of one project: the newest wins. */
  createdAt: string
  run: () => Promise<void>
  /** Called instead of `run` when a newer deployment of the project replaced this one. */
  supersede: (by: string) => Promise<void>
}

interface Waiting {
  build: QueuedBuild
  settle: () => void
}

export class BuildQueue {
  /** Owner → project → its one waiting build. */
  readonly #waiting = new Map<string, Map<string, Waiting>>()
  /** When each owner and project last started a build (a counter): the least recent goes next. */
  readonly #lastServed = new Map<string, number>()
  #turn = 0
  readonly #runningProjects = new Set<string>()
  #running = 0

  constructor(
    private readonly concurrency: number,
    private readonly onError: (error: unknown, build: QueuedBuild) => void,
  ) {}

  /** Resolves when the build has run or was superseded. */
  enqueue(build: QueuedBuild): Promise<void> {
    return new Promise<void>((resolve) => {
      const projects = this.#waiting.get(build.ownerId) ?? new Map<string, Waiting>()
      this.#waiting.set(build.ownerId, projects)
      const older = projects.get(build.projectId)
      const entry: Waiting = { build, settle: resolve }
      if (older && older.build.createdAt > build.createdAt) {
        this.#supersede(entry, older.build.deploymentId)
        return
      }
      projects.set(build.projectId, entry)
      if (older) this.#supersede(older, build.deploymentId)
      this.#next()
    })
  }

  /** Builds waiting for a turn, across every project. */
  get waiting(): number {
    let count = 0
    for (const projects of this.#waiting.values()) count += projects.size
    return count
  }

  #supersede(entry: Waiting, by: string): void {
    entry.build.supersede(by).then(entry.settle, (error: unknown) => {
      this.onError(error, entry.build)
      entry.settle()
    })
  }

  #next(): void {
    while (this.#running < this.concurrency) {
      const entry = this.#take()
      if (!entry) return
      this.#running++
      this.#runningProjects.add(entry.build.projectId)
      entry.build
        .run()
        .catch((error: unknown) => this.onError(error, entry.build))
        .finally(() => {
          this.#running--
          this.#runningProjects.delete(entry.build.projectId)
          entry.settle()
          this.#next()
        })
    }
  }

  /** The next build: the owner served least recently, then that owner's project served least recently. */
  #take(): Waiting | undefined {
    let best: { ownerId: string; projectId: string; entry: Waiting; rank: [number, number] } | undefined
    for (const [ownerId, projects] of this.#waiting) {
      const ownerRank = this.#lastServed.get(`owner:${ownerId}`) ?? 0
      if (best && ownerRank > best.rank[0]) continue
      for (const [projectId, entry] of projects) {
        if (this.#runningProjects.has(projectId)) continue
        const rank: [number, number] = [ownerRank, this.#lastServed.get(`project:${projectId}`) ?? 0]
        if (!best || rank[0] < best.rank[0] || (rank[0] === best.rank[0] && rank[1] < best.rank[1]))
          best = { ownerId, projectId, entry, rank }
      }
    }
    if (!best) return undefined
    const projects = this.#waiting.get(best.ownerId)
    projects?.delete(best.projectId)
    if (projects?.size === 0) this.#waiting.delete(best.ownerId)
    this.#turn++
    this.#lastServed.set(`owner:${best.ownerId}`, this.#turn)
    this.#lastServed.set(`project:${best.projectId}`, this.#turn)
    return best.entry
  }
}

/**
 * The fair build queue: at most one build per project at a time, owners served round-robin and each
 * owner's projects round-robin in turn, so one user's fifteen pushes never hold another user's
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
  /** Owner → project → its one waiting build; Map order is the round-robin order. */
  readonly #waiting = new Map<string, Map<string, Waiting>>()
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

  /** The next build by owner, then project, round-robin; served owners and projects move to the back. */
  #take(): Waiting | undefined {
    for (const [ownerId, projects] of this.#waiting) {
      for (const [projectId, entry] of projects) {
        if (this.#runningProjects.has(projectId)) continue
        projects.delete(projectId)
        this.#waiting.delete(ownerId)
        if (projects.size > 0) this.#waiting.set(ownerId, projects)
        return entry
      }
    }
    return undefined
  }
}

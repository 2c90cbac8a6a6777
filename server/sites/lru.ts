/** A size-bounded least-recently-used cache on a Map (whose iteration order is insertion order). */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>()
  #total = 0

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry.value
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value)
    if (weight > this.maxWeight) return
    this.delete(key)
    this.#entries.set(key, { value, weight })
    this.#total += weight
    for (const [oldest, entry] of this.#entries) {
      if (this.#total <= this.maxWeight) break
      this.#entries.delete(oldest)
      this.#total -= entry.weight
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#total -= entry.weight
  }

  get weight(): number {
    return this.#total
  }
}

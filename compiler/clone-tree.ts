/**
 * A deep copy of a syntax tree made of plain objects and arrays (hast from shiki, an icon's SVG), about
 * ten times faster than `structuredClone`, which serialises and deserialises. Anything else inside (a
 * class instance, a RegExp) is copied with `structuredClone`, so the copy never shares a mutable object
 * with the original. Trees have no cycles; a value referenced twice is copied twice.
 */
export function cloneTree<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length)
    for (let index = 0; index < value.length; index++) copy[index] = cloneTree(value[index])
    return copy as T
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value)
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) copy[key] = cloneTree((value as Record<string, unknown>)[key])
  return copy as T
}

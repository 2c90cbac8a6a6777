/** Columns (cols 1–4, default 2; stacks on small screens through CSS) and Column, one grid cell. */
import { h, num } from './html.js'
import type { Component } from './types.js'

export const columnCount = (value: unknown, fallback: number): number => {
  const count = num(value as never)
  return count !== undefined && Number.isInteger(count) && count >= 1 && count <= 4 ? count : fallback
}

export const Columns: Component = (context) =>
  h('div', { className: ['d-columns', `d-cols-${columnCount(context.props.cols, 2)}`] }, context.render())

export const Column: Component = (context) => h('div', { className: ['d-column'] }, context.render())

#!/usr/bin/env node
import { raiseInterruptBudget } from '../lib/jit-budget.js'
import { createDocsctlCli } from './registry.js'

// Commands load the compiler and other heavy modules inside execute(), never at the top of their
// file: every command is imported at start (registry.ts), and `docsctl whoami` should not pay for parsing MDX.
// Before any command starts a thread: builds spend a third of their CPU in V8's compiler otherwise.
raiseInterruptBudget(16)

// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
const enableColors = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR
const cli = createDocsctlCli(enableColors)

const [, , ...args] = process.argv
process.exitCode = await cli.run(args)

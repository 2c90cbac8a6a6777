import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { test } from 'node:test'
import { closestName } from '../../cli/help.js'
import { needs } from '../tier.js'
import { runCli } from './commands/cli-run.js'

test('closestName picks a near name and nothing for an unrelated one', () => {
  assert.equal(closestName('--prot', ['--port', '--dir', '--no-open']), '--port')
  assert.equal(closestName('--verbose', ['--port', '--dir', '--no-open']), undefined)
})

test('usage errors name the closest command or option, never every command or a raw #0', {
  skip: needs('a built binary'),
}, () => {
  const cases: [string[], RegExp][] = [
    [
      ['valdate'],
      /^Usage Error: Unknown command "valdate"; did you mean `docsctl validate`\?\nRun `docsctl --help`/,
    ],
    [['deplyments', 'list'], /did you mean `docsctl deployments list`\?/],
    [
      ['frobnicate'],
      /^Usage Error: Unknown command "frobnicate"\nRun `docsctl --help` to list every command\.\n$/,
    ],
    [['domains'], /`docsctl domains` needs one of: list, add, remove, verify/],
    [
      ['dev', '--prot', '3'],
      /`docsctl dev` has no option --prot; did you mean --port\?\n\nUsage: docsctl dev \[--port <port>\]/,
    ],
    [['domains', 'add'], /`docsctl domains add` needs <hostname>/],
    [['validate', 'a', 'b'], /`docsctl validate` takes no argument "b"/],
    [['push', '--project'], /`docsctl push`: not enough arguments to option --project/],
  ]
  for (const [args, expected] of cases) {
    const run = runCli(args, tmpdir())
    assert.equal(run.status, 1, args.join(' '))
    const output = run.stdout + run.stderr
    assert.match(output, expected)
    assert.doesNotMatch(output, /#\d|did you mean one of/, args.join(' '))
  }
})

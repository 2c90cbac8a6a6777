import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { test } from 'node:test'
import { CommandFailure } from '../../../cli/auth/failure.js'
import { startCallbackServer } from '../../../cli/auth/loopback.js'

test('the callback answers the code of the matching state and ignores others', async (t) => {
  const callback = await startCallbackServer({ port: 0, state: 'right-state', timeoutSeconds: 30 })
  t.after(() => callback.close())
  assert.match(callback.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/)
  const forged = await fetch(`${callback.redirectUri}?code=evil&state=wrong-state`)
  assert.equal(forged.status, 400)
  assert.match(await forged.text(), /does not match/)
  const ours = await fetch(`${callback.redirectUri}?code=the-code&state=right-state`)
  assert.equal(ours.status, 200)
  assert.match(await ours.text(), /You can close this tab/)
  assert.equal(await callback.code, 'the-code')
})

test('a denied sign-in ends the wait with the provider reason', async (t) => {
  const callback = await startCallbackServer({ port: 0, state: 's', timeoutSeconds: 30 })
  t.after(() => callback.close())
  const response = await fetch(
    `${callback.redirectUri}?state=s&error=access_denied&error_description=User+said+no`,
  )
  assert.equal(response.status, 400)
  await assert.rejects(
    callback.code,
    (error: Error) => error instanceof CommandFailure && /User said no/.test(error.message),
  )
})

test('a busy port says to choose another with --port', async (t) => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
  const address = blocker.address()
  assert.ok(typeof address === 'object' && address)
  await assert.rejects(
    startCallbackServer({ port: address.port, state: 's', timeoutSeconds: 30 }),
    (error: Error) =>
      error instanceof CommandFailure &&
      error.message.includes(`Port ${address.port} is busy`) &&
      error.message.includes('--port'),
  )
})

test('the wait times out with a message that says what to do', async (t) => {
  const callback = await startCallbackServer({ port: 0, state: 's', timeoutSeconds: 0.2 })
  t.after(() => callback.close())
  await assert.rejects(callback.code, (error: Error) =>
    /Timed out after 0.2 s.*--timeout/.test(error.message),
  )
})

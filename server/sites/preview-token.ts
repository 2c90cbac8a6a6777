/**
 * Preview hosts are `<token>--<slug>.<base_domain>`: the token is 128 random bits, so a deployment
 * that was never promoted can be reached only by whoever was given its preview URL.
 */
import { randomBytes } from 'node:crypto'
import { base32 } from '../ids.js'

/** 26 lowercase base32 characters: DNS-safe and free of `-`, so `--` still splits token from slug. */
export const newPreviewToken = (): string => base32(randomBytes(16))

export const isPreviewToken = (text: string): boolean => /^[2-7a-z]{26}$/.test(text)

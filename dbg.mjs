import { startS3Server } from './dist/test/server/blobs/s3-server.js'
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
const cleanups = []
const s3 = await startS3Server({ after: (fn) => cleanups.push(fn) })
const c = s3.client()
for (const k of ['p/a/1','p/a/2','p/b/3','p/c/4','p/d/5']) await c.send(new PutObjectCommand({ Bucket: s3.bucket, Key: k, Body: 'x' }))
for (const args of [{MaxKeys: 2}, {MaxKeys: 2, Prefix: 'p/'}, {MaxKeys:1, Prefix: 'p/a/'}]) {
try { const r = await c.send(new ListObjectsV2Command({ Bucket: s3.bucket, ...args })); console.log(args, r.Contents?.map(x=>x.Key), r.IsTruncated, r.NextContinuationToken) 
  if (r.NextContinuationToken) { const r2 = await c.send(new ListObjectsV2Command({ Bucket: s3.bucket, ...args, ContinuationToken: r.NextContinuationToken })); console.log(' next', r2.Contents?.map(x=>x.Key)) }
} catch (e) { console.log(args, 'err', e.name) }
}
for (const f of cleanups) await f()

#!/usr/bin/env node
// Prints the debug secret of a project on a host (src/server/admin/debug-secret.ts), for the
// operator to hand to whoever may switch debug mode on: DEBUG_SECRET=… node scripts/debug-secret.mjs <host> <project>
import { createHmac } from 'node:crypto';

const [host, project] = process.argv.slice(2);
const key = process.env.DEBUG_SECRET;
if (!host || !project || !key) {
  console.error('usage: DEBUG_SECRET=… node scripts/debug-secret.mjs <host> <project id>');
  process.exit(2);
}
console.log(createHmac('sha256', key).update(`${host.toLowerCase()}/${project}`).digest('hex').slice(0, 16));

// The browser tests drive Debian's Chromium. Install it when missing and we are root; else say how.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const BIN = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (fs.existsSync(BIN)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `\nChromium is missing at ${BIN}. Install it first:\n  sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk\n`,
  );
  process.exit(1);
}
console.log('Installing Debian chromium for the browser tests…');
const run = (args) =>
  spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
if (
  run(['update', '-qq']).status !== 0 ||
  run(['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk']).status !== 0
) {
  console.error('\nCould not install chromium with apt-get; install it by hand and run the tests again.\n');
  process.exit(1);
}
if (!fs.existsSync(BIN)) {
  console.error(`\nchromium installed but ${BIN} is not there; set CHROMIUM_PATH.\n`);
  process.exit(1);
}

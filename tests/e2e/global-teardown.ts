import fs from 'node:fs';
import os from 'node:os';

/** Remove the run's temporary data folder (the server has stopped by now). */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.startsWith(os.tmpdir())) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A project's server caches, cleared on demand (`POST /api/app/util/{project}/cache/clear`) on every
 * process: the caches here check their own freshness (a table's meta is keyed on its version), so
 * this is for changes made outside the app, e.g. an operator editing the database by hand. Areas
 * register what they cache per project; with REDIS_URL set, a clear is broadcast so every process
 * serving the same database clears too.
 */
import type { Redis } from 'ioredis';

export type CacheClear = (projectId: string) => number;

const CHANNEL = 'lc:cache-clear';

export class ProjectCaches {
  private readonly clears = new Map<string, CacheClear>();
  private pub: Redis | undefined;
  private sub: Redis | undefined;

  /** Add a cache by name; its clear answers how many entries it dropped. */
  register(name: string, clear: CacheClear): void {
    this.clears.set(name, clear);
  }

  /** Clear this process's caches of a project; answers entries dropped per cache. */
  clearLocal(projectId: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, clear] of this.clears) out[name] = clear(projectId);
    return out;
  }

  /** Clear here, and on every other process when connected to Redis. */
  async clear(projectId: string): Promise<Record<string, number>> {
    const here = this.clearLocal(projectId);
    await this.pub?.publish(CHANNEL, projectId);
    return here;
  }

  /** Listen for other processes' clears (each process hears its own too; clearing twice is harmless). */
  async connect(redisUrl: string): Promise<void> {
    const { Redis } = await import('ioredis');
    this.pub = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    this.sub = this.pub.duplicate();
    this.sub.on('message', (channel: string, projectId: string) => {
      if (channel === CHANNEL && /^[0-9a-f]{24}$/.test(projectId)) this.clearLocal(projectId);
    });
    await this.sub.subscribe(CHANNEL);
  }

  async close(): Promise<void> {
    this.sub?.disconnect();
    this.pub?.disconnect();
  }
}

import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { checkAccount, checkPassword, message } from '../shared/validation.ts';
import { createUser } from './account/service.ts';
import { type DemoContent, seedDemo } from './demo/seed.ts';
import { createProject } from './project/service.ts';

export interface FirstRun {
  account: string;
  password: string;
  generated: boolean;
  projectId: string;
  demo: DemoContent;
}

function randomPassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = letters + digits;
  const chars = [letters[randomInt(letters.length)]!, digits[randomInt(digits.length)]!];
  while (chars.length < 16) chars.push(all[randomInt(all.length)]!);
  return chars.sort(() => randomInt(3) - 1).join('');
}

/**
 * On an empty database: create the owner account (ADMIN_ACCOUNT / ADMIN_PASSWORD, else `builder`
 * with a random password) and a demo project holding a small working app (src/server/demo). Answers
 * what was created, or null when not first run.
 */
export async function firstRun(app: FastifyInstance): Promise<FirstRun | null> {
  const { db } = app.database;
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const account = app.config.adminAccount ?? 'builder';
  const generated = !app.config.adminPassword;
  const password = app.config.adminPassword ?? randomPassword();
  const badAccount = checkAccount(account);
  if (badAccount) throw new Error(`ADMIN_ACCOUNT: ${message(badAccount)}`);
  const badPassword = checkPassword(password);
  if (badPassword) throw new Error(`ADMIN_PASSWORD: ${message(badPassword)}`);
  const owner = await createUser(db, { account, phone: null, nickname: 'Owner', pwd: password });
  const project = await createProject(db, owner.id, 'Demo', { tier: 3 });
  // The demo app (tables with rows, pages, a menu), through the builder's own calls.
  const demo = await seedDemo(app, owner.id, project.id);
  return { account, password, generated, projectId: project.id, demo };
}

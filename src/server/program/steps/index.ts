/** The executors of the step types, one file each; a test ties this list to STEP_TYPES. */
import type { Executor } from '../context.ts';
import { call } from './call.ts';
import { code } from './code.ts';
import { condition } from './condition.ts';
import { create } from './create.ts';
import { display } from './display.ts';
import { http } from './http.ts';
import { input } from './input.ts';
import { loop } from './loop.ts';
import { notify } from './notify.ts';
import { query } from './query.ts';
import { remove } from './remove.ts';
import { returnStep } from './return.ts';
import { set } from './set.ts';
import { update } from './update.ts';

export const EXECUTORS: Record<string, Executor> = {
  input,
  query,
  create,
  update,
  remove,
  set,
  condition,
  loop,
  display,
  notify,
  call,
  http,
  code,
  return: returnStep,
};

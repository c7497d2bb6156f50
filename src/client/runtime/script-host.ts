/**
 * The bridge between builder code in the sandbox and a rendered page: each `api.<method>` call the
 * worker sends is carried out here through the page's action host and the end-user data calls, with
 * the same checks as page actions (safe URLs only, the user's own permissions on the server).
 */
import { obj, str } from '../../shared/props.ts';
import type { ScriptUser } from '../../shared/script-api.ts';
import { ActionError, type ActionHost, runActions } from './actions.ts';
import { queryEntity, removeRecord, saveRecord } from './data-source.ts';
import type { SandboxHost } from './sandbox.ts';
import type { ApiMethod, RunContext } from './sandbox-protocol.ts';

export interface ScriptHostInput {
  project: string;
  host: ActionHost;
  /** The interface language now (read at each run). */
  lang: () => string;
}

/** The signed-in user as scripts see it (`api.user`). */
export function scriptUser(u: unknown): ScriptUser | null {
  const user = obj(u);
  const id = str(user._id);
  if (!id) return null;
  return {
    _id: id,
    user: str(user.account) || str(user.user),
    ...(str(user.nickname) ? { nickname: str(user.nickname) } : {}),
    ...(str(user.phone) ? { phone: str(user.phone) } : {}),
    ...(Array.isArray(user.roles) ? { roles: user.roles.map(String) } : {}),
  };
}

function need(method: string, name: string, v: unknown): string {
  const s = str(v).trim();
  if (!s) throw new ActionError(`api.${method}: ${name} is missing`, method);
  return s;
}

/** What builder code may do on this page: one case per method of the declared API. */
export function createScriptHost({ project, host, lang }: ScriptHostInput): SandboxHost & {
  call(method: ApiMethod, args: unknown[]): Promise<unknown>;
} {
  return {
    context: (): RunContext => {
      const s = host.scope();
      return { user: scriptUser(s.user), params: s.params ?? {}, state: s.state ?? {}, lang: lang() };
    },
    async call(method, args) {
      const [a, b, c] = args;
      switch (method) {
        case 'notify': {
          const level = b === 'error' || b === 'warning' || b === 'success' ? b : 'info';
          return host.notify(level, str(a));
        }
        case 'navigate':
          return host.navigate(need(method, 'url', a), false);
        case 'openPage':
          return host.openPage(need(method, 'page', a), obj(b), c === 'blank' ? 'blank' : 'self');
        case 'openModal': {
          const page = need(method, 'page', a);
          return new Promise((resolve) =>
            host.openModal({ page, params: obj(b), width: 600, onClose: resolve }),
          );
        }
        case 'closeModal':
          return host.closeModal(a);
        case 'setValue':
          return host.setValue(need(method, 'target', a), b);
        case 'getValue': {
          const target = need(method, 'target', a);
          const s = host.scope();
          return target.startsWith('state.') ? obj(s.state)[target.slice(6)] : obj(s.widgets)[target];
        }
        case 'refresh':
          return host.refreshWidget(need(method, 'widget', a));
        case 'runAction': {
          const list = Array.isArray(a) ? a : [a];
          const out = await runActions(list, host, { quiet: true });
          if (out.error) throw new ActionError(out.error.message, 'runAction');
          return;
        }
        case 'query':
          return queryEntity(project, need(method, 'entity', a), obj(b));
        case 'save':
          return saveRecord(project, need(method, 'entity', a), obj(b));
        case 'update':
          return saveRecord(project, need(method, 'entity', a), obj(c), need(method, 'id', b));
        case 'remove':
          await removeRecord(project, need(method, 'entity', a), need(method, 'id', b));
          return;
        case 'runProgram':
          return host.runProgram(need(method, 'program', a), obj(b));
        default:
          throw new Error(`unknown api.${String(method satisfies never)}`);
      }
    },
  };
}

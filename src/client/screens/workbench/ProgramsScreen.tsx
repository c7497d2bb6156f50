/**
 * /dev/programs: the project's programs grouped by module (create, rename, sort, move, remove) beside
 * the editor of the open one (src/client/programs/: step tree, generated step panels, test run,
 * versions, run log). The open program is in the address (`?program=<id>`).
 */
import { App } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Flow } from '../../../shared/program/index.ts';
import { ApiError } from '../../api/api-error.ts';
import { programsApi } from '../../api/programs.ts';
import { type Entity, type Module, wb } from '../../api/workbench.ts';
import { PanelContext } from '../../designer/panel/context.ts';
import { editorApi } from '../../programs/api.ts';
import { ProgramEditor } from '../../programs/ProgramEditor.tsx';
import { groupByModule, ProgramList } from '../../programs/ProgramList.tsx';
import { useProject } from './workbench-context.ts';

export default function ProgramsScreen() {
  const { i18n } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const [flows, setFlows] = useState<Flow[]>([]);
  const [tables, setTables] = useState<Entity[]>([]);
  const [modules, setModules] = useState<Module[]>([]);
  const [params, setParams] = useSearchParams();
  const currentId = params.get('program');
  const current = flows.find((f) => f._id === currentId) ?? null;

  const fail = useCallback(
    (err: unknown) => {
      void message.error(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    },
    [message],
  );
  const reload = useCallback(async () => {
    const [f, e, m] = await Promise.all([programsApi.list(p), wb.entities(p), wb.modules(p)]);
    setFlows(f.filter((x) => x._type === 'program'));
    setTables(e);
    setModules(m);
  }, [p]);
  useEffect(() => {
    void reload().catch(fail);
  }, [reload, fail]);

  const open = (id: string | null) => setParams(id ? { program: id } : {}, { replace: false });
  const merge = useCallback((f: Flow) => setFlows((list) => list.map((x) => (x._id === f._id ? f : x))), []);
  const guarded =
    <A extends unknown[]>(fn: (...a: A) => Promise<void>) =>
    async (...a: A) => {
      try {
        await fn(...a);
      } catch (err) {
        fail(err);
      }
    };

  return (
    <PanelContext.Provider value={{ project: p, widgets: [], lang }}>
      <div className="prog-screen" data-testid="programs-screen">
        <ProgramList
          flows={flows}
          modules={modules}
          current={currentId}
          onOpen={open}
          onCreate={guarded(async (name, module) => {
            const same = flows.filter((f) => (f._module ?? null) === module);
            const f = await editorApi.create(p, name, module, Math.max(0, ...same.map((x) => x._sort + 1)));
            setFlows((list) => [...list, f]);
            open(f._id);
          })}
          onRename={guarded(async (f, name) => merge(await editorApi.update(p, f._id, { name })))}
          onSort={guarded(async (f, by) => {
            const group = groupByModule(flows, modules).find((g) => g.flows.some((x) => x._id === f._id));
            if (!group) return;
            const list = [...group.flows];
            const i = list.findIndex((x) => x._id === f._id);
            const j = i + by;
            if (j < 0 || j >= list.length) return;
            [list[i], list[j]] = [list[j]!, list[i]!];
            // Renumber the module's programs so equal sorts cannot tie.
            const changed = await Promise.all(
              list.map((x, k) => (x._sort === k ? x : editorApi.update(p, x._id, { sort: k }))),
            );
            for (const x of changed) merge(x);
          })}
          onMove={guarded(async (f, module) => merge(await editorApi.update(p, f._id, { module })))}
          onRemove={guarded(async (f) => {
            await programsApi.remove(p, f._id);
            setFlows((list) => list.filter((x) => x._id !== f._id));
            if (currentId === f._id) open(null);
          })}
        />
        <div className="prog-main">
          {current ? (
            <ProgramEditor
              project={p}
              flow={current}
              tables={tables}
              programs={flows}
              lang={lang}
              onSaved={merge}
            />
          ) : null}
        </div>
      </div>
    </PanelContext.Provider>
  );
}

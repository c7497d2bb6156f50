import { Empty, Spin, Tabs, Typography } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { type Field, wb } from '../../api/workbench.ts';
import { PageLoading } from '../../shell/PageLoading.tsx';
import { TableIndexesCard } from '../../views/TableIndexes.tsx';
import { useDataModel } from './data-context.ts';
import { FieldEditor } from './FieldEditor.tsx';
import { useProject } from './workbench-context.ts';

const RowsGrid = lazy(() => import('./RowsGrid.tsx'));

/** /dev/data/:entity — a table's fields, rows and indexes (the same panel as /system/data/{entity}). */
export default function EntityScreen() {
  const { t } = useTranslation();
  const { entity: ref } = useParams();
  const p = useProject()._id;
  const { entities } = useDataModel();
  const entity = entities.find((e) => e._id === ref || e._code === ref);
  const [fields, setFields] = useState<Field[] | null>(null);
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab = asked === 'rows' || asked === 'indexes' ? asked : 'fields';

  const id = entity?._id;
  const reload = useCallback(async () => {
    if (!id) return;
    setFields(await wb.fields(p, id));
  }, [p, id]);
  useEffect(() => {
    setFields(null);
    reload().catch(() => setFields([]));
  }, [reload]);

  if (!entity) return <Empty className="center-pad" description={t('entity.pick')} />;
  return (
    <div data-testid="entity-screen">
      <Typography.Title level={4} className="wb-entity-title">
        {entity._name} <code>{entity._code}</code>
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setSearch(k === 'fields' ? {} : { tab: k }, { replace: true })}
        items={[
          {
            key: 'fields',
            label: t('entity.fields'),
            children: fields ? (
              <FieldEditor entity={entity} entities={entities} fields={fields} reload={reload} />
            ) : (
              <Spin />
            ),
          },
          {
            key: 'rows',
            label: t('entity.rows'),
            children:
              fields && tab === 'rows' ? (
                <Suspense fallback={<PageLoading />}>
                  <RowsGrid key={entity._id} entity={entity} fields={fields} />
                </Suspense>
              ) : null,
          },
          {
            key: 'indexes',
            label: t('tadv.indexesTitle'),
            children:
              fields && tab === 'indexes' ? (
                <TableIndexesCard key={entity._id} project={p} table={entity._id} fields={fields} />
              ) : null,
          },
        ]}
      />
    </div>
  );
}

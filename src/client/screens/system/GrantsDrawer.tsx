import { App, Button, Checkbox, Drawer, Empty, Form, Select, Space, Spin, Tabs, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOME_TYPES, type HomeType } from '../../../shared/api/access.ts';
import { type MenuEntry, menusApi, type PageSummary, pagesApi } from '../../api/pages.ts';
import { type Grants, type Role, type RoleHome, rolesApi } from '../../api/system.ts';
import { type Entity, wb } from '../../api/workbench.ts';
import { useNarrow } from '../../shell/use-app-project.ts';
import { useAdminContext } from '../../stores/admin-features.ts';
import { useProject } from '../workbench/workbench-context.ts';
import { menuTree, withTargets } from './grant-tree.ts';
import { RoleTablesPanel } from './RoleTableConfig.tsx';

interface Sources {
  menus: MenuEntry[];
  pages: PageSummary[];
  tables: Entity[];
  programs: { _id: string; _name: string }[];
  datasets: { _id: string; _name: string }[];
}

type ListKind = 'page' | 'entity' | 'program' | 'dataset';

/**
 * A role's grants, edited per group (menus as a tree, pages, tables, programs, datasets), each with
 * select-all, and its home; saved with one bind call (builder spec §2 permission management).
 */
export function GrantsDrawer({
  role,
  onClose,
  onSaved,
}: {
  role: Role;
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const narrow = useNarrow();
  const [src, setSrc] = useState<Sources | null>(null);
  const [grants, setGrants] = useState<Grants>(() => ({
    route: role.route,
    program: role.program,
    entity: role.entity,
    shortcut: role.shortcut,
    dataset: role.dataset,
    page: role.page,
    simple: role.simple,
  }));
  const [home, setHome] = useState<RoleHome | null>(role.home);
  const [busy, setBusy] = useState(false);
  // The parts of role administration this system's feature switches leave on (the server agrees).
  const flags = useAdminContext(p)?.flags;
  const can = (part: string) => flags?.[`auth.${part}`] !== false;

  useEffect(() => {
    Promise.all([menusApi.list(p), pagesApi.list(p), wb.entities(p), menusApi.flows(p)]).then(
      ([menus, pages, tables, flows]) =>
        setSrc({
          menus,
          pages,
          tables,
          programs: flows.filter((f) => f._type === 'program'),
          datasets: flows.filter((f) => f._type === 'dataset'),
        }),
      () => setSrc({ menus: [], pages: [], tables: [], programs: [], datasets: [] }),
    );
  }, [p]);

  const tree = useMemo(() => (src ? menuTree(src.menus) : []), [src]);

  async function save() {
    setBusy(true);
    try {
      await rolesApi.bind(p, role._id, {
        ...(can('grant')
          ? {
              route: grants.route,
              page: grants.page,
              entity: grants.entity,
              program: grants.program,
              dataset: grants.dataset,
            }
          : {}),
        ...(can('home') ? { home: home?.value ? home : null } : {}),
      });
      await onSaved();
    } catch {
      // The request wrapper showed the coded error.
    } finally {
      setBusy(false);
    }
  }

  const listOf = (kind: ListKind): { value: string; label: string }[] => {
    if (!src) return [];
    if (kind === 'page') return src.pages.map((x) => ({ value: x._id, label: x.name }));
    if (kind === 'entity') return src.tables.map((x) => ({ value: x._id, label: x._name }));
    return (kind === 'program' ? src.programs : src.datasets).map((x) => ({ value: x._id, label: x._name }));
  };

  const checkList = (kind: ListKind) => {
    const options = listOf(kind);
    if (options.length === 0)
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sys.nothing')} />;
    const chosen = grants[kind].filter((v) => options.some((o) => o.value === v));
    return (
      <Space direction="vertical" style={{ width: '100%' }} data-testid={`grant-${kind}`}>
        <Checkbox
          checked={chosen.length === options.length}
          indeterminate={chosen.length > 0 && chosen.length < options.length}
          onChange={(e) =>
            setGrants({
              ...grants,
              [kind]: e.target.checked
                ? [...new Set([...grants[kind], ...options.map((o) => o.value)])]
                : grants[kind].filter((v) => !options.some((o) => o.value === v)),
            })
          }
          data-testid={`all-${kind}`}
        >
          {t('sys.selectAll')}
        </Checkbox>
        <Checkbox.Group
          value={grants[kind]}
          onChange={(v) =>
            setGrants({
              ...grants,
              // Keep grants of things not listed (e.g. removed since) out of this group's hands.
              [kind]: [
                ...grants[kind].filter((x) => !options.some((o) => o.value === x)),
                ...(v as string[]),
              ],
            })
          }
          options={options}
          className="grant-list"
        />
      </Space>
    );
  };

  const allMenus = src?.menus.map((m) => m._id) ?? [];
  const homeOptions = (type: HomeType) => {
    if (!src) return [];
    if (type === 'route')
      return src.menus.filter((m) => m._type !== 'dir').map((m) => ({ value: m._id, label: m._name }));
    if (type === 'page') return listOf('page');
    if (type === 'dataset') return listOf('dataset');
    return listOf('program');
  };

  return (
    <Drawer
      open
      onClose={onClose}
      title={t('sys.grantsTitle', { name: role.name })}
      size={narrow ? '100%' : 560}
      data-testid="grants-drawer"
      extra={
        <Button
          type="primary"
          loading={busy}
          disabled={!src}
          onClick={() => void save()}
          data-testid="grants-save"
        >
          {t('common.save')}
        </Button>
      }
    >
      {!src ? (
        <Spin className="center-pad" />
      ) : (
        <>
          {can('grant') ? (
            <Tabs
              items={[
                {
                  key: 'route',
                  label: t('sys.g.route'),
                  children: tree.length ? (
                    <Space direction="vertical" style={{ width: '100%' }} data-testid="grant-route">
                      <Checkbox
                        checked={allMenus.length > 0 && allMenus.every((id) => grants.route.includes(id))}
                        onChange={(e) => {
                          const next = e.target.checked ? allMenus : [];
                          const g = { ...grants, route: next };
                          setGrants(e.target.checked ? withTargets(g, next, src.menus) : g);
                        }}
                        data-testid="all-route"
                      >
                        {t('sys.selectAll')}
                      </Checkbox>
                      <Tree
                        checkable
                        checkStrictly
                        defaultExpandAll
                        selectable={false}
                        treeData={tree}
                        checkedKeys={grants.route}
                        onCheck={(checked) => {
                          const next = Array.isArray(checked) ? checked : checked.checked;
                          const ids = next.map(String);
                          const added = ids.filter((id) => !grants.route.includes(id));
                          setGrants(withTargets({ ...grants, route: ids }, added, src.menus));
                        }}
                      />
                      <div className="wb-muted">{t('sys.routeHint')}</div>
                    </Space>
                  ) : (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sys.nothing')} />
                  ),
                },
                { key: 'page', label: t('sys.g.page'), children: checkList('page') },
                {
                  key: 'entity',
                  label: t('sys.g.entity'),
                  children: (
                    <>
                      {checkList('entity')}
                      {can('config') ? (
                        <RoleTablesPanel
                          project={p}
                          role={role}
                          tables={src.tables}
                          programs={src.programs}
                        />
                      ) : null}
                    </>
                  ),
                },
                { key: 'program', label: t('sys.g.program'), children: checkList('program') },
                { key: 'dataset', label: t('sys.g.dataset'), children: checkList('dataset') },
              ]}
            />
          ) : null}
          {can('home') ? (
            <Form layout="vertical" className="grant-home">
              <Form.Item label={t('sys.home')} extra={t('sys.homeHint')}>
                <Space.Compact style={{ width: '100%' }}>
                  <Select
                    style={{ width: 140 }}
                    value={home?.type ?? 'page'}
                    onChange={(type: HomeType) => setHome({ type, value: '' })}
                    options={HOME_TYPES.map((k) => ({ value: k, label: t(`sys.homeTypes.${k}`) }))}
                    data-testid="home-type"
                  />
                  <Select
                    allowClear
                    showSearch={{ optionFilterProp: 'label' }}
                    style={{ flex: 1 }}
                    placeholder={t('sys.homeNone')}
                    value={home?.value || undefined}
                    onChange={(value?: string) => {
                      if (!value) return setHome(null);
                      setHome({ type: home?.type ?? 'page', value });
                      if ((home?.type ?? 'page') === 'page' && !grants.page.includes(value)) {
                        setGrants({ ...grants, page: [...grants.page, value] });
                        message.info(t('sys.homeGranted'));
                      }
                    }}
                    options={homeOptions(home?.type ?? 'page')}
                    data-testid="home-value"
                  />
                </Space.Compact>
              </Form.Item>
            </Form>
          ) : null}
        </>
      )}
    </Drawer>
  );
}

import { App, Button, Drawer, Empty, List, Space, Spin, Tag } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PageSummary, type PageVersion, pagesApi } from '../../api/pages.ts';
import { useProject } from './workbench-context.ts';

interface Props {
  page: PageSummary;
  onClose(): void;
  onRestored(): Promise<void>;
}

/** A page's published versions, newest first; restoring one makes it the draft (after a confirmation). */
export function PageVersions({ page, onClose, onRestored }: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const p = useProject()._id;
  const [versions, setVersions] = useState<PageVersion[] | null>(null);

  const load = useCallback(async () => {
    setVersions(await pagesApi.versions(p, page._id));
  }, [p, page._id]);
  useEffect(() => {
    load().catch(() => setVersions([]));
  }, [load]);

  function restore(v: PageVersion) {
    modal.confirm({
      title: t('pages.restoreTitle', { version: v.version }),
      content: t('pages.restoreBody'),
      okText: t('pages.restore'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await pagesApi.restore(p, page._id, v.version);
        message.success(t('pages.restored', { version: v.version }));
        await onRestored();
      },
    });
  }

  return (
    <Drawer
      open
      title={t('pages.versionsOf', { name: page.name })}
      onClose={onClose}
      size={420}
      destroyOnHidden
      data-testid="page-versions-drawer"
    >
      {!versions ? (
        <Spin className="center-pad" />
      ) : versions.length === 0 ? (
        <Empty description={t('pages.noVersions')} />
      ) : (
        <List<PageVersion>
          dataSource={versions}
          renderItem={(v) => (
            <List.Item
              data-testid={`version-${v.version}`}
              actions={[
                <Button key="restore" size="small" onClick={() => restore(v)} data-testid="version-restore">
                  {t('pages.restore')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space size={4}>
                    <span>{t('pages.versionN', { version: v.version })}</span>
                    {v.published ? <Tag color="green">{t('pages.current')}</Tag> : null}
                  </Space>
                }
                description={
                  <>
                    <div className="wb-version-note">{v.note || t('pages.noNote')}</div>
                    <div className="wb-muted">
                      {dayjs(v.createdAt).format('YYYY-MM-DD HH:mm:ss')}
                      {v.createdByName ? ` · ${v.createdByName}` : ''}
                    </div>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}

/**
 * /dev/preview without a page (the workbench's "Preview"): the project's pages to preview. Builders
 * get every page (drafts included) from the admin list; on an expired project, where builder calls
 * answer 104 but previews still open, the published pages from the end-user list.
 */
import { EyeOutlined } from '@ant-design/icons';
import { Alert, Card, Empty, List, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-error.ts';
import { pagesApi } from '../../api/pages.ts';
import { get } from '../../api/request.ts';

interface Choice {
  _id: string;
  name: string;
  version: number | null;
  changed: boolean;
}

async function choices(project: string): Promise<Choice[]> {
  try {
    return (await pagesApi.list(project)).map((p) => ({
      _id: p._id,
      name: p.name,
      version: p.version,
      changed: p.changed,
    }));
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 104) throw e;
    const list = await get<{ _id: string; name: string; version: number }[]>(
      `/api/app/page/${encodeURIComponent(project)}/`,
      { share: false },
    );
    return list.map((p) => ({ _id: p._id, name: p.name, version: p.version, changed: false }));
  }
}

export function PreviewPicker(props: { project: string }) {
  const { t } = useTranslation();
  const [list, setList] = useState<Choice[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    setList(null);
    choices(props.project).then(
      (l) => live && setList(l),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [props.project]);
  const href = (id: string) =>
    `/dev/preview?page=${encodeURIComponent(id)}&project=${encodeURIComponent(props.project)}`;
  return (
    <div className="lc-preview" style={{ padding: 16, maxWidth: 720, margin: '0 auto' }}>
      <Card title={t('runtime.previewPick')} data-testid="preview-picker">
        {error ? (
          <Alert type="error" showIcon title={error} />
        ) : !list ? (
          <Spin />
        ) : !list.length ? (
          <Empty description={t('runtime.previewNoPages')}>
            <Link to="/dev/pages">{t('pages.area')}</Link>
          </Empty>
        ) : (
          <List
            dataSource={list}
            renderItem={(p) => (
              <List.Item
                data-testid={`preview-pick-${p._id}`}
                actions={[
                  <Link key="open" to={href(p._id)} aria-label={`${t('pages.preview')}: ${p.name}`}>
                    <EyeOutlined /> {t('pages.preview')}
                  </Link>,
                ]}
              >
                <List.Item.Meta
                  title={<Link to={href(p._id)}>{p.name}</Link>}
                  description={
                    p.version === null ? (
                      <Tag>{t('runtime.previewNeverPublished')}</Tag>
                    ) : (
                      <Tag color={p.changed ? 'orange' : 'green'}>
                        v{p.version}
                        {p.changed ? ` · ${t('runtime.previewChanged')}` : ''}
                      </Tag>
                    )
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}

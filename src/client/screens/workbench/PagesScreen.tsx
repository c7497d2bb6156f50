import {
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  FormatPainterOutlined,
  HistoryOutlined,
  LinkOutlined,
  MoreOutlined,
  PlusOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, Form, Input, Modal, Select, Space, Spin, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type PageSummary, pagesApi } from '../../api/pages.ts';
import { type Entity, wb } from '../../api/workbench.ts';
import { NameModal } from './NameModal.tsx';
import { PageVersions } from './PageVersions.tsx';
import { buildTemplate, needsTable, TEMPLATE_KINDS, type TemplateKind } from './page-templates.ts';
import { showServerError } from './server-errors.ts';
import { useProject } from './workbench-context.ts';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; page: PageSummary }
  | { kind: 'duplicate'; page: PageSummary }
  | { kind: 'publish'; page: PageSummary }
  | { kind: 'versions'; page: PageSummary }
  | null;

const TIME = 'YYYY-MM-DD HH:mm';

/** /dev/pages: the project's pages with their publish state, templates, versions and links. */
export default function PagesScreen() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const p = useProject()._id;
  const [pages, setPages] = useState<PageSummary[] | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  const reload = useCallback(async () => {
    setPages(await pagesApi.list(p));
  }, [p]);
  useEffect(() => {
    reload().catch(() => setPages([]));
  }, [reload]);

  function remove(page: PageSummary) {
    modal.confirm({
      title: t('pages.removeTitle', { name: page.name }),
      content: t('pages.removeBody'),
      okText: t('common.remove'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await pagesApi.remove(p, page._id);
        message.success(t('pages.removed'));
        await reload();
      },
    });
  }

  if (!pages) return <Spin className="center-pad" />;
  const designUrl = (id: string) => `/dev/design/${id}`;
  const previewUrl = (id: string) => `/dev/preview?page=${id}&project=${p}`;
  const appUrl = (id: string) => `/app/${p}/${id}`;

  return (
    <div className="wb-pad" data-testid="pages-screen">
      <div className="wb-bar">
        <h2 className="wb-heading">{t('pages.title')}</h2>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDialog({ kind: 'create' })}
          data-testid="new-page"
        >
          {t('pages.create')}
        </Button>
      </div>
      <Table<PageSummary>
        rowKey="_id"
        size="middle"
        pagination={false}
        dataSource={pages}
        locale={{ emptyText: t('pages.empty') }}
        data-testid="page-list"
        onRow={(r) => ({ 'data-testid': `page-row-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('pages.name'),
            dataIndex: 'name',
            render: (name: string, r) => (
              <Link to={designUrl(r._id)} data-testid="page-name">
                {name}
              </Link>
            ),
          },
          {
            title: t('pages.state'),
            render: (_, r) => <PublishState page={r} />,
          },
          {
            title: t('pages.updated'),
            dataIndex: 'updatedAt',
            width: 160,
            render: (v: number) => dayjs(v).format(TIME),
          },
          {
            title: t('pages.actions'),
            width: 330,
            render: (_, r) => (
              <Space size={4} wrap>
                <Button
                  size="small"
                  icon={<FormatPainterOutlined />}
                  onClick={() => navigate(designUrl(r._id))}
                  data-testid="page-design"
                >
                  {t('pages.design')}
                </Button>
                <Button
                  size="small"
                  icon={<SendOutlined />}
                  onClick={() => setDialog({ kind: 'publish', page: r })}
                  data-testid="page-publish"
                >
                  {t('pages.publish')}
                </Button>
                <Button
                  size="small"
                  icon={<HistoryOutlined />}
                  onClick={() => setDialog({ kind: 'versions', page: r })}
                  data-testid="page-versions"
                >
                  {t('pages.versions')}
                </Button>
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      {
                        key: 'preview',
                        icon: <EyeOutlined />,
                        label: (
                          <a
                            href={previewUrl(r._id)}
                            target="_blank"
                            rel="noreferrer"
                            data-testid="page-preview"
                          >
                            {t('pages.preview')}
                          </a>
                        ),
                      },
                      {
                        key: 'open',
                        icon: <LinkOutlined />,
                        disabled: r.version === null,
                        label:
                          r.version === null ? (
                            t('pages.openPublished')
                          ) : (
                            <a href={appUrl(r._id)} target="_blank" rel="noreferrer" data-testid="page-open">
                              {t('pages.openPublished')}
                            </a>
                          ),
                      },
                      { type: 'divider' },
                      {
                        key: 'rename',
                        icon: <EditOutlined />,
                        label: t('pages.rename'),
                        onClick: () => setDialog({ kind: 'rename', page: r }),
                      },
                      {
                        key: 'duplicate',
                        icon: <CopyOutlined />,
                        label: t('pages.duplicate'),
                        onClick: () => setDialog({ kind: 'duplicate', page: r }),
                      },
                      {
                        key: 'remove',
                        icon: <DeleteOutlined />,
                        danger: true,
                        label: t('common.remove'),
                        onClick: () => remove(r),
                      },
                    ],
                  }}
                >
                  <Button
                    size="small"
                    icon={<MoreOutlined />}
                    aria-label={t('pages.more')}
                    data-testid="page-more"
                  />
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      {dialog?.kind === 'create' ? (
        <CreatePageModal
          onClose={() => setDialog(null)}
          onCreated={async () => {
            message.success(t('pages.created'));
            await reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <NameModal
          title={t('pages.rename')}
          label={t('pages.name')}
          initial={dialog.page.name}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await pagesApi.rename(p, dialog.page._id, name);
            await reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'duplicate' ? (
        <NameModal
          title={t('pages.duplicate')}
          label={t('pages.name')}
          initial={t('pages.copyName', { name: dialog.page.name }).slice(0, 128)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await pagesApi.duplicate(p, dialog.page._id, name);
            await reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'publish' ? (
        <PublishModal
          page={dialog.page}
          onClose={() => setDialog(null)}
          onDone={async () => {
            message.success(t('pages.published'));
            await reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'versions' ? (
        <PageVersions page={dialog.page} onClose={() => setDialog(null)} onRestored={reload} />
      ) : null}
    </div>
  );
}

/** Draft changed since publish / published version n / never published. */
function PublishState({ page }: { page: PageSummary }) {
  const { t } = useTranslation();
  if (page.version === null)
    return (
      <Tag color="default" data-testid="page-state">
        {t('pages.never')}
      </Tag>
    );
  return (
    <Space size={4} data-testid="page-state">
      <Tag color="green">{t('pages.publishedVersion', { version: page.version })}</Tag>
      {page.changed ? <Tag color="orange">{t('pages.changed')}</Tag> : null}
    </Space>
  );
}

interface CreateValues {
  name: string;
  template: TemplateKind;
  table?: string;
}

/** Name, template and (for templates that show data) the table to bind. */
function CreatePageModal({ onClose, onCreated }: { onClose(): void; onCreated(): Promise<void> }) {
  const { t } = useTranslation();
  const p = useProject()._id;
  const [form] = Form.useForm<CreateValues>();
  const template = Form.useWatch('template', form) ?? 'blank';
  const [tables, setTables] = useState<Entity[] | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    wb.entities(p).then(setTables, () => setTables([]));
  }, [p]);

  async function finish(v: CreateValues) {
    setBusy(true);
    try {
      let doc: ReturnType<typeof buildTemplate> | undefined;
      if (needsTable(v.template)) {
        const entity = tables?.find((x) => x._id === v.table);
        if (!entity) return;
        const fields = await wb.fields(p, entity._id);
        doc = buildTemplate(
          v.template,
          v.name.trim(),
          {
            id: entity._id,
            name: entity._name,
            fields: fields.map((f) => ({
              key: f._field,
              name: f._option.alias || f._name,
              type: f._type,
              hide: f._hide,
            })),
          },
          { submit: t('pages.submit') },
        );
      }
      await pagesApi.create(p, v.name.trim(), doc);
      await onCreated();
      onClose();
    } catch (err) {
      showServerError(form, err, { name: 'name', document: 'template' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={t('pages.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        name="page-create"
        onFinish={finish}
        initialValues={{ name: '', template: 'blank' }}
      >
        <Form.Item
          name="name"
          label={t('pages.name')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={128} autoFocus />
        </Form.Item>
        <Form.Item name="template" label={t('pages.template')}>
          <Select
            options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`pages.templates.${k}`) }))}
            data-testid="page-template"
          />
        </Form.Item>
        {needsTable(template) ? (
          <Form.Item
            name="table"
            label={t('pages.table')}
            extra={t(`pages.templateHelp.${template}`)}
            rules={[{ required: true, message: t('pages.chooseTable') }]}
          >
            <Select
              loading={!tables}
              showSearch={{ optionFilterProp: 'label' }}
              options={(tables ?? []).map((e) => ({ value: e._id, label: e._name }))}
              notFoundContent={t('pages.noTables')}
              data-testid="page-table"
            />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

/** Publishes the draft as the next version, with an optional note. */
function PublishModal({
  page,
  onClose,
  onDone,
}: {
  page: PageSummary;
  onClose(): void;
  onDone(): Promise<void>;
}) {
  const { t } = useTranslation();
  const p = useProject()._id;
  const [form] = Form.useForm<{ note: string }>();
  const [busy, setBusy] = useState(false);
  async function finish({ note }: { note: string }) {
    setBusy(true);
    try {
      await pagesApi.publish(p, page._id, (note ?? '').trim());
      await onDone();
      onClose();
    } catch (err) {
      showServerError(form, err, { note: 'note' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      open
      title={t('pages.publishTitle', { name: page.name, version: page.versions + 1 })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('pages.publish')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="page-publish" onFinish={finish} initialValues={{ note: '' }}>
        <Form.Item name="note" label={t('pages.note')}>
          <Input.TextArea maxLength={255} rows={3} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

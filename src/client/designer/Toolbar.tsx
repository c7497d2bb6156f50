/** The designer's top bar: mode, undo/redo, align/distribute, save state, publish, versions, preview, help. */
import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  ArrowLeftOutlined,
  CloudUploadOutlined,
  ColumnWidthOutlined,
  CopyOutlined,
  DeleteOutlined,
  DesktopOutlined,
  EyeOutlined,
  HistoryOutlined,
  MobileOutlined,
  QuestionCircleOutlined,
  RedoOutlined,
  UndoOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignMiddleOutlined,
  VerticalAlignTopOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import {
  App,
  Button,
  Drawer,
  Input,
  List,
  Modal,
  Popover,
  Segmented,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type PageVersion, pagesApi } from '../api/pages.ts';
import type { Align } from './commands.ts';
import { SHORTCUTS } from './shortcuts.ts';
import { useDesigner, ZOOM_STEPS } from './store.ts';

const ALIGNS: { how: Align; icon: React.ReactNode }[] = [
  { how: 'left', icon: <AlignLeftOutlined /> },
  { how: 'hcenter', icon: <AlignCenterOutlined /> },
  { how: 'right', icon: <AlignRightOutlined /> },
  { how: 'top', icon: <VerticalAlignTopOutlined /> },
  { how: 'vcenter', icon: <VerticalAlignMiddleOutlined /> },
  { how: 'bottom', icon: <VerticalAlignBottomOutlined /> },
];

/** Three bars spaced evenly along the axis they spread over (antd has no distribute icons). */
function DistributeIcon({ how }: { how: 'h' | 'v' }) {
  const bars = [2, 7, 12].map((at) =>
    how === 'h' ? (
      <rect key={at} x={at} y={3} width={2} height={10} rx={0.5} />
    ) : (
      <rect key={at} x={3} y={at} width={10} height={2} rx={0.5} />
    ),
  );
  return (
    <span className="anticon" aria-hidden>
      <svg width="1em" height="1em" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true">
        {bars}
      </svg>
    </span>
  );
}

const DISTRIBUTES: { how: 'h' | 'v'; label: string; icon: React.ReactNode }[] = [
  { how: 'h', label: 'designer.distributeH', icon: <DistributeIcon how="h" /> },
  { how: 'v', label: 'designer.distributeV', icon: <DistributeIcon how="v" /> },
];

const SAVE_COLOR = {
  saved: 'green',
  saving: 'blue',
  dirty: 'default',
  error: 'red',
  invalid: 'orange',
} as const;

export function Toolbar(props: {
  project: string;
  pageId: string;
  name: string;
  flush: () => Promise<void>;
  reload: () => Promise<void>;
  /** Shown first in the right-hand group (presence and connection state). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mode = useDesigner((s) => s.mode);
  const canUndo = useDesigner((s) => s.canUndo);
  const canRedo = useDesigner((s) => s.canRedo);
  const save = useDesigner((s) => s.save);
  const saveError = useDesigner((s) => s.saveError);
  const many = useDesigner((s) => s.selection.size);
  const readOnly = useDesigner((s) => s.readOnly);
  const zoom = useDesigner((s) => s.zoom);
  const zoomFit = useDesigner((s) => s.zoomFit);
  const st = useDesigner.getState();
  const [publishing, setPublishing] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [versions, setVersions] = useState<PageVersion[] | null>(null);
  const preview = `/dev/preview?page=${encodeURIComponent(props.pageId)}&project=${encodeURIComponent(props.project)}`;

  async function publish() {
    setBusy(true);
    try {
      await props.flush();
      if (useDesigner.getState().save !== 'saved') return;
      const r = await pagesApi.publish(props.project, props.pageId, note, {});
      message.success(t('designer.published', { version: r.version }));
      setPublishing(false);
      setNote('');
    } finally {
      setBusy(false);
    }
  }

  async function openVersions() {
    setVersions([]);
    setVersions(await pagesApi.versions(props.project, props.pageId));
  }

  async function restore(version: number) {
    await props.flush();
    await pagesApi.restore(props.project, props.pageId, version);
    setVersions(null);
    await props.reload();
    message.success(t('designer.restored', { version }));
  }

  const help = (
    <table className="dz-help" data-testid="shortcut-help">
      <tbody>
        {SHORTCUTS.map((s) => (
          <tr key={s.keys}>
            <td>
              <Typography.Text keyboard>{s.keys}</Typography.Text>
            </td>
            <td>{t(s.label)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );

  return (
    <div className="dz-toolbar" data-testid="designer-toolbar">
      <Space size="small" wrap>
        <Link to="/dev/pages">
          <Button size="small" icon={<ArrowLeftOutlined />} aria-label={t('designer.back')} />
        </Link>
        <Typography.Text strong data-testid="page-name">
          {props.name}
        </Typography.Text>
        <Segmented
          size="small"
          value={mode}
          onChange={(v) => st.setMode(v as 'pc' | 'mobile')}
          options={[
            { value: 'pc', label: t('designer.pc'), icon: <DesktopOutlined /> },
            { value: 'mobile', label: t('designer.mobile'), icon: <MobileOutlined /> },
          ]}
          data-testid="mode-switch"
        />
        <Space.Compact size="small">
          <Tooltip title={`${t('designer.zoomOut')} (Ctrl+-)`}>
            <Button
              size="small"
              icon={<ZoomOutOutlined />}
              disabled={zoom <= ZOOM_STEPS[0]}
              onClick={() => st.zoomBy(-1)}
              data-testid="zoom-out"
              aria-label={t('designer.zoomOut')}
            />
          </Tooltip>
          <Tooltip title={`${t('designer.zoomReset')} (Ctrl+0)`}>
            <Button
              size="small"
              onClick={() => st.setZoom(1)}
              data-testid="zoom-reset"
              className="dz-zoom-value"
            >
              {Math.round(zoom * 100)}%
            </Button>
          </Tooltip>
          <Tooltip title={`${t('designer.zoomFit')} (Shift+1)`}>
            <Button
              size="small"
              icon={<ColumnWidthOutlined />}
              type={zoomFit ? 'primary' : 'default'}
              aria-pressed={zoomFit}
              onClick={() => st.zoomToFit()}
              data-testid="zoom-fit"
              aria-label={t('designer.zoomFit')}
            />
          </Tooltip>
          <Tooltip title={`${t('designer.zoomIn')} (Ctrl+=)`}>
            <Button
              size="small"
              icon={<ZoomInOutlined />}
              disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!}
              onClick={() => st.zoomBy(1)}
              data-testid="zoom-in"
              aria-label={t('designer.zoomIn')}
            />
          </Tooltip>
        </Space.Compact>
        <Space.Compact size="small">
          <Tooltip title={`${t('designer.undo')} (Ctrl+Z)`}>
            <Button
              size="small"
              icon={<UndoOutlined />}
              disabled={readOnly || !canUndo}
              onClick={st.undo}
              data-testid="undo"
              aria-label={t('designer.undo')}
            />
          </Tooltip>
          <Tooltip title={`${t('designer.redo')} (Ctrl+Shift+Z)`}>
            <Button
              size="small"
              icon={<RedoOutlined />}
              disabled={readOnly || !canRedo}
              onClick={st.redo}
              data-testid="redo"
              aria-label={t('designer.redo')}
            />
          </Tooltip>
          <Tooltip title={`${t('designer.duplicate')} (Ctrl+D)`}>
            <Button
              size="small"
              icon={<CopyOutlined />}
              disabled={readOnly || many < 1}
              onClick={() => st.duplicate()}
              data-testid="duplicate"
              aria-label={t('designer.duplicate')}
            />
          </Tooltip>
          <Tooltip title={`${t('designer.delete')} (Delete)`}>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={readOnly || many < 1}
              onClick={() => st.remove()}
              data-testid="delete"
              aria-label={t('designer.delete')}
            />
          </Tooltip>
        </Space.Compact>
        <Space.Compact size="small">
          {ALIGNS.map((a) => (
            <Tooltip key={a.how} title={t(`designer.align${a.how[0]!.toUpperCase()}${a.how.slice(1)}`)}>
              <Button
                size="small"
                icon={a.icon}
                disabled={many < 2}
                onClick={() => st.align(a.how)}
                data-testid={`align-${a.how}`}
                aria-label={t(`designer.align${a.how[0]!.toUpperCase()}${a.how.slice(1)}`)}
              />
            </Tooltip>
          ))}
          {DISTRIBUTES.map((d) => (
            <Tooltip key={d.how} title={t(d.label)}>
              <Button
                size="small"
                icon={d.icon}
                disabled={many < 3}
                onClick={() => st.distribute(d.how)}
                data-testid={`distribute-${d.how}`}
                aria-label={t(d.label)}
              />
            </Tooltip>
          ))}
        </Space.Compact>
      </Space>
      <Space size="small" wrap>
        {props.extra}
        <Tooltip title={saveError || undefined}>
          <Tag color={SAVE_COLOR[save]} data-testid="save-state" data-state={save}>
            {t(`designer.save.${save}`)}
          </Tag>
        </Tooltip>
        <Button size="small" icon={<HistoryOutlined />} onClick={openVersions} data-testid="versions">
          {t('designer.versions')}
        </Button>
        <a href={preview} target="_blank" rel="noreferrer" data-testid="preview-link">
          <Button size="small" icon={<EyeOutlined />}>
            {t('designer.preview')}
          </Button>
        </a>
        <Button
          size="small"
          type="primary"
          icon={<CloudUploadOutlined />}
          onClick={() => setPublishing(true)}
          disabled={readOnly}
          data-testid="publish"
        >
          {t('designer.publish')}
        </Button>
        <Popover content={help} title={t('designer.shortcuts')} trigger="click" placement="bottomRight">
          <Button
            size="small"
            icon={<QuestionCircleOutlined />}
            aria-label={t('designer.shortcuts')}
            data-testid="help"
          />
        </Popover>
      </Space>
      <Modal
        open={publishing}
        title={t('designer.publish')}
        okText={t('designer.publish')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        onOk={publish}
        onCancel={() => setPublishing(false)}
        destroyOnHidden
      >
        <Input.TextArea
          value={note}
          maxLength={255}
          placeholder={t('designer.versionNote')}
          aria-label={t('designer.versionNote')}
          onChange={(e) => setNote(e.target.value)}
          data-testid="publish-note"
        />
      </Modal>
      <Drawer
        open={versions !== null}
        title={t('designer.versions')}
        onClose={() => setVersions(null)}
        size={380}
      >
        <List
          dataSource={versions ?? []}
          locale={{ emptyText: t('designer.noVersions') }}
          renderItem={(v) => (
            <List.Item
              data-testid={`version-${v.version}`}
              actions={[
                <Button key="restore" size="small" disabled={readOnly} onClick={() => restore(v.version)}>
                  {t('designer.restore')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space>
                    v{v.version}
                    {v.published ? <Tag color="green">{t('designer.live')}</Tag> : null}
                  </Space>
                }
                description={`${v.note || '—'} · ${new Date(v.createdAt).toLocaleString()}${v.createdByName ? ` · ${v.createdByName}` : ''}`}
              />
            </List.Item>
          )}
        />
      </Drawer>
    </div>
  );
}

import { Alert, Checkbox, Form, Input, Modal, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Flow } from '../../../shared/program/index.ts';
import {
  beijingText,
  checkCron,
  DEFAULT_TERM,
  decodeCron,
  encodeTerm,
  nextFires,
  type ScheduleTerm,
  TERMS,
  termProblem,
  WEEK_DAYS,
} from '../../../shared/schedule/index.ts';
import { ApiError } from '../../api/api-error.ts';
import { type ScheduleTask, schedulesApi } from '../../api/schedules.ts';

type Mode = ScheduleTerm['term'] | 'custom';

interface State extends ScheduleTerm {
  name: string;
  flow: string;
  mode: Mode;
  cron: string;
}

function initial(task: ScheduleTask | null): State {
  if (!task) return { ...DEFAULT_TERM, name: '', flow: '', mode: 'day', cron: encodeTerm(DEFAULT_TERM) };
  const term = decodeCron(task._cron);
  return {
    ...(term ?? DEFAULT_TERM),
    name: task._name,
    flow: task._flow,
    mode: term ? term.term : 'custom',
    cron: task._cron,
  };
}

/** The cron the form stands for, or why it has none. */
function cronOf(s: State): { cron: string } | { problem: string } {
  if (s.mode === 'custom') return s.cron.trim() ? { cron: s.cron.trim() } : { problem: 'cron' };
  const term: ScheduleTerm = { ...s, term: s.mode };
  const problem = termProblem(term);
  return problem ? { problem } : { cron: encodeTerm(term) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Create or edit a scheduled task: term pickers (or a raw cron) and the next 5 fires in Beijing time. */
export function ScheduleForm(props: {
  project: string;
  task: ScheduleTask | null;
  flows: Flow[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [s, setS] = useState<State>(() => initial(props.task));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<State>) => setS((x) => ({ ...x, ...patch }));

  const built = cronOf(s);
  const check = 'cron' in built ? checkCron(built.cron) : null;
  const okCron = check?.ok ? check.cron : '';
  const preview = useMemo(() => (okCron ? nextFires(okCron, 5) : []), [okCron]);
  const programs = props.flows.filter((f) => f._type === 'program');
  const [month, day] = s.yearDateDay.split('-');

  async function save() {
    setError(null);
    if (!s.name.trim()) return setError(t('sched.needName'));
    if (!s.flow) return setError(t('sched.needFlow'));
    if (!check?.ok) return setError(t('sched.badCron'));
    const { name: _n, flow: _f, mode, cron: _c, ...term } = s;
    const option = mode === 'custom' ? { term: 'custom' } : { ...term, term: mode };
    setSaving(true);
    try {
      const input = { name: s.name.trim(), flow: s.flow, cron: check.cron, option };
      if (props.task) await schedulesApi.update(props.project, props.task._id, input);
      else await schedulesApi.set(props.project, input);
      props.onSaved();
    } catch (err) {
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={props.task ? t('sched.edit') : t('sched.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={save}
      confirmLoading={saving}
      onCancel={props.onClose}
      width="min(600px, calc(100vw - 24px))"
      okButtonProps={{ 'data-testid': 'schedule-save' } as never}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="schedule-form">
        <Form.Item label={t('sched.name')} required>
          <Input
            value={s.name}
            maxLength={128}
            onChange={(e) => set({ name: e.target.value })}
            data-testid="schedule-name"
          />
        </Form.Item>
        <Form.Item label={t('sched.flow')} required extra={t('sched.flowHint')}>
          <Select
            value={s.flow || undefined}
            onChange={(v) => set({ flow: v })}
            showSearch
            optionFilterProp="label"
            data-testid="schedule-flow"
            options={programs.map((f) => ({
              value: f._id,
              label: f._name,
              disabled: f._version === null,
            }))}
          />
        </Form.Item>
        <Form.Item label={t('sched.term')}>
          <Select
            value={s.mode}
            onChange={(v: Mode) => set({ mode: v })}
            data-testid="schedule-term"
            options={[...TERMS, 'custom' as const].map((k) => ({ value: k, label: t(`sched.terms.${k}`) }))}
          />
        </Form.Item>
        {s.mode === 'custom' ? (
          <Form.Item label={t('sched.cron')} extra={t('sched.cronHint')}>
            <Input
              value={s.cron}
              onChange={(e) => set({ cron: e.target.value })}
              data-testid="schedule-cron"
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('sched.time')}>
            <Input
              type="time"
              value={s.time}
              onChange={(e) => set({ time: e.target.value || '00:00' })}
              data-testid="schedule-time"
              style={{ maxWidth: 160 }}
            />
          </Form.Item>
        )}
        {s.mode === 'week_day' ? (
          <Form.Item label={t('sched.weekDay')}>
            <Checkbox.Group
              value={s.weekDay}
              onChange={(v) => set({ weekDay: v as State['weekDay'] })}
              options={WEEK_DAYS.map((d) => ({ value: d, label: t(`sched.days.${d}`) }))}
            />
          </Form.Item>
        ) : null}
        {s.mode === 'month_date' ? (
          <Form.Item label={t('sched.monthDate')}>
            <Select
              mode="multiple"
              value={s.monthDate}
              onChange={(v: number[]) => set({ monthDate: v })}
              options={Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: String(i + 1) }))}
            />
          </Form.Item>
        ) : null}
        {s.mode === 'month_week_day' ? (
          <Form.Item label={t('sched.monthWeek')}>
            <Space wrap>
              <Select
                value={s.monthWeek}
                onChange={(v: number) => set({ monthWeek: v })}
                style={{ width: 140 }}
                options={[1, 2, 3, 4, 5].map((n) => ({ value: n, label: t('sched.nth', { n }) }))}
              />
              <Select
                value={s.monthWeekDay}
                onChange={(v: State['monthWeekDay']) => set({ monthWeekDay: v })}
                style={{ width: 140 }}
                options={WEEK_DAYS.map((d) => ({ value: d, label: t(`sched.days.${d}`) }))}
              />
            </Space>
          </Form.Item>
        ) : null}
        {s.mode === 'year_date_day' ? (
          <Form.Item label={t('sched.yearDateDay')}>
            <Space wrap>
              <Select
                value={Number(month)}
                style={{ width: 110 }}
                onChange={(v: number) => set({ yearDateDay: `${pad(v)}-${day}` })}
                options={Array.from({ length: 12 }, (_, i) => ({
                  value: i + 1,
                  label: t('sched.month', { n: i + 1 }),
                }))}
              />
              <Select
                value={Number(day)}
                style={{ width: 110 }}
                onChange={(v: number) => set({ yearDateDay: `${month}-${pad(v)}` })}
                options={Array.from({ length: 31 }, (_, i) => ({
                  value: i + 1,
                  label: t('sched.day', { n: i + 1 }),
                }))}
              />
            </Space>
          </Form.Item>
        ) : null}
        {s.mode === 'date_day' ? (
          <Form.Item label={t('sched.dateDay')}>
            <Input
              type="date"
              value={s.dateDay}
              onChange={(e) => set({ dateDay: e.target.value })}
              style={{ maxWidth: 200 }}
            />
          </Form.Item>
        ) : null}
        <Form.Item label={t('sched.preview')}>
          {check?.ok ? (
            <ol className="schedule-preview" data-testid="schedule-preview">
              {preview.map((ms) => (
                <li key={ms}>{beijingText(ms)}</li>
              ))}
            </ol>
          ) : (
            <Alert
              type="warning"
              showIcon
              data-testid="schedule-preview-error"
              message={
                check
                  ? check.why === 'never'
                    ? t('sched.never')
                    : t('sched.badCron')
                  : t('sched.incomplete')
              }
            />
          )}
          <div className="schedule-cron-text" data-testid="schedule-cron-text">
            cron: {check?.ok ? check.cron : 'cron' in built ? built.cron : '—'}
          </div>
        </Form.Item>
        {error ? <Alert type="error" showIcon message={error} data-testid="schedule-error" /> : null}
      </Form>
    </Modal>
  );
}

/** Row types of the platform's own tables (builder-defined tables are typed at run time). */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  account: string | null;
  phone: string | null;
  nickname: string;
  pwd: string;
  status: 'active' | 'disabled';
  avatar: string | null;
  /** For sub-users: the user who created them. */
  parent_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  /** login: an ordinary sign-in; child: a parent acting as a sub-user. */
  kind: 'login' | 'child';
  /** For child tokens, the session that asked for it (revoked with it). */
  parent_hash: string | null;
  /** For child tokens, the one project they may act in. */
  project_id: string | null;
  created_at: number;
  expires_at: number;
}

export interface ProjectsTable {
  id: string;
  name: string;
  owner_id: string;
  auth: 'admin' | 'public';
  home: string;
  /** Tier: 0 trial, 1 basic, 2 enterprise, 3 platform. */
  tier: number;
  expired_at: number | null;
  /** Set when a quota is exceeded or an operator limits the project. */
  limited: number;
  /** JSON: custom project config (logo, name, config, view, code, reg). */
  custom: string;
  /** JSON: project options (accuracy …). */
  options: string;
  created_at: number;
  updated_at: number;
}

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role_type: 'owner' | 'admin' | 'common' | 'public';
  role_id: string | null;
  status: 'active' | 'disabled';
  created_at: number;
}

export interface VerifyCodesTable {
  id: Generated<number>;
  phone: string;
  type: string;
  code_hash: string;
  tries: number;
  expires_at: number;
  created_at: number;
}

export interface CaptchasTable {
  id: string;
  answer: string;
  expires_at: number;
}

export interface PagesTable {
  id: string;
  project_id: string;
  name: string;
  created_at: number;
  updated_at: number;
  /** JSON page document the designer edits ('' for rows made before 005: a blank page). */
  draft: Generated<string>;
  /** JSON page document end users see; null until the first publish. */
  published: string | null;
  published_version: number | null;
  published_at: number | null;
  /** The highest version number handed out (publishes are numbered 1, 2, …). */
  last_version: Generated<number>;
  /** 1: also offered as a standalone display (/api/app/dp). */
  display: Generated<number>;
  updated_by: string | null;
}

export interface PageVersionsTable {
  page_id: string;
  version: number;
  document: string;
  note: Generated<string>;
  created_by: string | null;
  created_at: number;
}

export interface DataModulesTable {
  id: string;
  project_id: string;
  name: string;
  sort: number;
  created_at: number;
}

export interface DataEntitiesTable {
  id: string;
  project_id: string;
  module_id: string | null;
  name: string;
  code: string;
  sort: number;
  created_at: number;
  updated_at: number;
}

export interface DataFieldsTable {
  id: string;
  project_id: string;
  entity_id: string;
  name: string;
  code: string;
  type: string;
  relate_id: string | null;
  /** JSON: `_option` (alias, info {enable, list}, decimals …). */
  options: string;
  hide: number;
  sort: number;
  status: string;
  created_at: number;
  updated_at: number;
}

export interface RolesTable {
  id: string;
  project_id: string;
  name: string;
  type: 'admin' | 'common' | 'public';
  /** JSON {apply, enable, reg}. */
  options: string;
  /** JSON {type, value} or null. */
  home: string | null;
  /** JSON {route, program, entity, shortcut, dataset, page, simple}. */
  grants: string;
  created_at: number;
  updated_at: number;
}

export interface RoutesTable {
  id: string;
  project_id: string;
  parent_id: string | null;
  sort: number;
  type: 'dir' | 'table' | 'page' | 'display';
  name: string;
  value: string | null;
  /** JSON list of bound program ids. */
  programs: string;
  created_at: number;
  updated_at: number;
}

export interface InvitationsTable {
  id: string;
  project_id: string;
  code: string;
  link: string;
  role_id: string | null;
  status: 'open' | 'closed';
  expires_at: number;
  created_by: string;
  created_at: number;
}

/** Y updates of co-edited documents: appended rows plus compacted snapshot rows. */
export interface PageUpdatesTable {
  seq: Generated<number>;
  doc_id: string;
  /** 1 for a compacted snapshot row, 0 for an appended update. */
  snapshot: number;
  data: Uint8Array;
  created_at: number;
}

export interface ShareItemsTable {
  project_id: string;
  model: string;
  type: 'project' | 'public' | 'private';
  owner_id: string;
  key: string;
  /** JSON text. */
  value: string;
  created_by: string | null;
  updated_at: number;
}

export interface ShareIncrementsTable {
  project_id: string;
  key: string;
  value: number;
}

export interface PlaygroundAppsTable {
  project_id: string;
  app: string;
  content: string;
  created_at: number;
}

export interface PrintKeysTable {
  key: string;
  project_id: string;
  user_id: string | null;
  page: string;
  data: string;
  created_at: number;
  expires_at: number;
}

export interface ShortLinksTable {
  code: string;
  url_hash: string;
  url: string;
  created_by: string | null;
  created_at: number;
  hits: Generated<number>;
}

export interface RoleApplicationsTable {
  id: string;
  project_id: string;
  user_id: string;
  role_id: string;
  status: 'pending' | 'approved' | 'rejected';
  note: Generated<string>;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
}

export interface FlowsTable {
  id: string;
  project_id: string;
  module_id: string | null;
  type: 'program' | 'dataset';
  name: string;
  sort: number;
  /** JSON {_process, _option}. */
  draft: string;
  released: string | null;
  released_version: number | null;
  last_version: number;
  created_at: number;
  updated_at: number;
}

export interface FlowVersionsTable {
  flow_id: string;
  version: number;
  document: string;
  created_by: string | null;
  created_at: number;
}

export interface ProgramRunsTable {
  id: string;
  project_id: string;
  flow_id: string;
  version: number | null;
  user_id: string | null;
  trigger: 'exec' | 'test' | 'display' | 'record' | 'schedule';
  input: string;
  status: 'ok' | 'failed' | 'rolled-back';
  error_code: number | null;
  error_step: string | null;
  message: string | null;
  duration_ms: number;
  trace: string;
  created_at: number;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  verify_codes: VerifyCodesTable;
  captchas: CaptchasTable;
  pages: PagesTable;
  page_versions: PageVersionsTable;
  data_modules: DataModulesTable;
  data_entities: DataEntitiesTable;
  data_fields: DataFieldsTable;
  roles: RolesTable;
  routes: RoutesTable;
  invitations: InvitationsTable;
  page_updates: PageUpdatesTable;
  share_items: ShareItemsTable;
  share_increments: ShareIncrementsTable;
  role_applications: RoleApplicationsTable;
  short_links: ShortLinksTable;
  print_keys: PrintKeysTable;
  playground_apps: PlaygroundAppsTable;
  orders: OrdersTable;
  third_identities: ThirdIdentitiesTable;
  third_states: ThirdStatesTable;
  flows: FlowsTable;
  flow_versions: FlowVersionsTable;
  program_runs: ProgramRunsTable;
  schedules: SchedulesTable;
  schedule_fires: ScheduleFiresTable;
  data_indexes: DataIndexesTable;
  data_rollups: DataRollupsTable;
}

export interface DataIndexesTable {
  id: string;
  project_id: string;
  entity_id: string;
  name: string;
  shape: string;
  columns: string;
  kind: string;
  pinned: number;
  uses: number;
  last_used_at: number;
  created_at: number;
  cost_ms: number;
  build_ms: number;
}

export interface DataRollupsTable {
  id: string;
  project_id: string;
  entity_id: string;
  name: string;
  shape: string;
  keys: string;
  vals: string;
  pinned: number;
  uses: number;
  last_used_at: number;
  created_at: number;
  cost_ms: number;
  build_ms: number;
}

export interface SchedulesTable {
  id: string;
  project_id: string;
  name: string;
  cron: string;
  flow_id: string;
  option: string;
  enabled: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  armed_at: number;
}

export interface ScheduleFiresTable {
  task_id: string;
  fire_time: number;
  state: 'running' | 'success' | 'fail' | 'missed' | 'skipped';
  node: string;
  run_id: string | null;
  result: string | null;
  started_at: number;
  ended_at: number | null;
}

export interface OrdersTable {
  id: string;
  user_id: string;
  project_id: string;
  package: 'basics' | 'enterprise' | 'custom';
  /** In fen. */
  amount: number;
  /** 0 unpaid, 1 paid. */
  status: number;
  pay_type: 'alipay' | 'wxpay' | null;
  trade_no: string | null;
  paid_at: number | null;
  created_at: number;
}

export interface ThirdIdentitiesTable {
  provider: 'weixin' | 'wxwork';
  subject: string;
  user_id: string;
  created_at: number;
}

export interface ThirdStatesTable {
  hash: string;
  purpose: 'login' | 'bind' | 'token';
  provider: 'weixin' | 'wxwork';
  user_id: string | null;
  data: string;
  expires_at: number;
}

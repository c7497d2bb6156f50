/** The administration area's sections built so far (builder spec §2 route paths), in menu order. */
export const SYSTEM_SECTIONS = [
  { key: 'menu', label: 'sys.menu' },
  { key: 'auth', label: 'sys.auth' },
  { key: 'user', label: 'sys.user' },
  { key: 'project', label: 'sys.project' },
  { key: 'schedule', label: 'sys.schedule' },
  { key: 'i18n', label: 'adm.nav.i18n' },
  { key: 'share', label: 'adm.nav.share' },
  { key: 'data-advanced', label: 'tadv.nav' },
  { key: 'deploy', label: 'adm.nav.deploy' },
] as const;

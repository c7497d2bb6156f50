/** The administration area's sections built so far (builder spec §2 route paths), in menu order. */
export const SYSTEM_SECTIONS = [
  { key: 'menu', label: 'sys.menu' },
  { key: 'auth', label: 'sys.auth' },
  { key: 'user', label: 'sys.user' },
  { key: 'project', label: 'sys.project' },
  { key: 'schedule', label: 'sys.schedule' },
] as const;

/** Strings of the simple data-table entries (/system/simple), zh and en. */
export const adm4En = {
  item: { simple: 'Simple tables' },
  simple: {
    title: 'Simple tables',
    help: 'Each data table as a simple entry: open its rows to browse, add, edit or remove them, and choose which roles get the table in simple mode.',
    search: 'Search tables',
    none: 'No data tables yet',
    open: 'Open rows',
    roles: 'Roles with this table in simple mode',
    rolesPlaceholder: 'Roles with this table in simple mode',
    noRoles: 'No role has it in simple mode',
    saved: 'Simple-mode roles saved',
    back: 'All tables',
    unknown: 'No such table in this system',
  },
};

export const adm4Zh: typeof adm4En = {
  item: { simple: '简易数据表' },
  simple: {
    title: '简易数据表',
    help: '每张数据表都是一个简易入口：打开即可浏览、新增、编辑或删除数据，并可选择哪些角色在简易模式下使用这张表。',
    search: '搜索数据表',
    none: '还没有数据表',
    open: '打开数据',
    roles: '简易模式下可用此表的角色',
    rolesPlaceholder: '选择简易模式下可用此表的角色',
    noRoles: '还没有角色在简易模式下使用此表',
    saved: '简易模式角色已保存',
    back: '全部数据表',
    unknown: '本系统没有这张数据表',
  },
};

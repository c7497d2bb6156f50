import { describe, expect, it } from 'vitest';
import { ADMIN_FEATURES, effectiveFeatures } from '../../shared/admin/features.ts';
import { adminBase, currentAdminEntry, visibleAdminMenu } from './admin-menu.ts';

const all = effectiveFeatures(ADMIN_FEATURES, {});
const paths = (ctx: Parameters<typeof visibleAdminMenu>[0]) =>
  visibleAdminMenu(ctx).flatMap((g) =>
    g.entries.flatMap((e) => [e.path, ...(e.children ?? []).map((c) => c.path)]),
  );

describe('the admin side menu', () => {
  it('by default: every flagged entry, without the debug and early-access ones', () => {
    expect(paths({ flags: all, debug: false, early: false, vendor: true })).toEqual([
      'user',
      'auth',
      'menu',
      'schedule',
      'i18n',
      'share',
      'share/selection',
      'share/config',
      'features',
    ]);
  });
  it('debug adds project and data; early access adds increment and, in a vendor build, deploy', () => {
    const p = paths({ flags: all, debug: true, early: true, vendor: true });
    expect(p).toEqual(expect.arrayContaining(['project', 'data-advanced', 'share/increment', 'deploy']));
    expect(paths({ flags: all, debug: true, early: true, vendor: false })).not.toContain('deploy');
  });
  it('the simple entry needs early access only', () => {
    expect(paths({ flags: all, debug: false, early: true, vendor: false })).toContain('simple');
    expect(paths({ flags: all, debug: true, early: false, vendor: true })).not.toContain('simple');
    const none = effectiveFeatures(ADMIN_FEATURES, Object.fromEntries(ADMIN_FEATURES.map((f) => [f, false])));
    expect(paths({ flags: none, debug: false, early: true, vendor: false })).toContain('simple');
    expect(currentAdminEntry('simple/abc')?.path).toBe('simple');
  });
  it('a switched-off feature hides its entry, and a group left empty goes', () => {
    const flags = effectiveFeatures(ADMIN_FEATURES, { schedule: false, selection: false, user: false });
    const menu = visibleAdminMenu({ flags, debug: false, early: false, vendor: true });
    expect(menu.map((g) => g.key)).toEqual(['people', 'build', 'system']);
    expect(paths({ flags, debug: false, early: false, vendor: true })).not.toContain('share/selection');
    expect(paths({ flags, debug: false, early: false, vendor: true })).not.toContain('user');
    // The installation not offering a feature wins over the project's switch.
    const offered = effectiveFeatures(['user'], { user: true, auth: true });
    expect(offered.auth).toBe(false);
    expect(offered['user.kick']).toBe(true);
    expect(effectiveFeatures(['user'], { 'user.kick': false })['user.kick']).toBe(false);
  });
  it('the current entry is the longest match; the base keeps a custom prefix', () => {
    expect(currentAdminEntry('share/increment')?.path).toBe('share/increment');
    expect(currentAdminEntry('share')?.path).toBe('share');
    expect(currentAdminEntry('user')?.path).toBe('user');
    expect(currentAdminEntry('nothing')).toBeNull();
    expect(adminBase('/system/user')).toBe('/system');
    expect(adminBase('/acme/system/share/config')).toBe('/acme/system');
    expect(adminBase('/system')).toBe('/system');
    expect(adminBase('/home/abc')).toBeNull();
    expect(adminBase('/a/b/system')).toBeNull();
  });
});

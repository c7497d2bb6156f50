/** A member's role type as people say it; the stored words (owner, admin, common, public) never show. */
const ROLE_TYPES = ['owner', 'admin', 'common', 'public'] as const;

/** The translated title of a role type, or null for none or an unknown one. */
export function roleTitle(role: string | null | undefined, t: (key: string) => string): string | null {
  return (ROLE_TYPES as readonly string[]).includes(role ?? '') ? t(`role.${role}`) : null;
}

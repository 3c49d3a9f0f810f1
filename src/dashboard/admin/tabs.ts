// The tabs of the admin screen, in their order; the address names one (`?tab=`).
export const ADMIN_TABS = ['users', 'audit', 'ai-logs', 'workspaces', 'finders'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

// The tabs of the account screen, in their order; the address names one (`?tab=`).
export const ACCOUNT_TABS = ['profile', 'security', 'sessions', 'delete'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

// The tabs of the organize screen, in their order; the address names one (`?tab=`).
export const ORGANIZE_TABS = ['tags', 'categories', 'fields', 'calendars'] as const;
export type OrganizeTab = (typeof ORGANIZE_TABS)[number];

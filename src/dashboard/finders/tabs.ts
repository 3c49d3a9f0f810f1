// The tabs of a finder's editor, in their order; the address names one (`?tab=`).
export const FINDER_TABS = [
  'design',
  'locations',
  'filters',
  'access',
  'keys',
  'publish',
  'analytics',
] as const;
export type FinderTab = (typeof FINDER_TABS)[number];

// The dashboard's pages under /app. Signed-out pages (sign in, sign up, sign up through an
// invitation) and the signed-in ones inside the app shell; a signed-in page without a session
// goes to sign-in, which comes back to it. Each page's state that a link should keep
// (workspace, search, order, tab) is in its search parameters, checked here.
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { ACCOUNT_TABS, type AccountTab } from './account/settings/tabs.ts';
import { SignIn } from './account/sign-in.tsx';
import { SignUp } from './account/sign-up.tsx';
import { ADMIN_TABS, type AdminTab } from './admin/tabs.ts';
import { getSession } from './api/session.ts';
import { APP_BASE_PATH } from './config.ts';
import { FINDER_TABS, type FinderTab } from './finders/tabs.ts';
import { LOCATION_SORTS, type LocationSort } from './locations/location-pages.ts';
import { ORGANIZE_TABS, type OrganizeTab } from './organize/tabs.ts';
import { AppShell } from './shell/app-shell.tsx';
import { NotFound } from './shell/not-found.tsx';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const id = (value: unknown) => {
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
};

const rootRoute = createRootRoute({ component: Outlet });

interface SignedOutSearch {
  /** The page to go back to once signed in. */
  redirect?: string;
  /** The session ended on its own (expired, revoked): the page says so. */
  expired?: boolean;
  /** The account was just deleted: the page says so. */
  deleted?: boolean;
}

/** The workspace a screen shows, when the address names one. */
export interface WorkspaceSearch {
  workspace?: number;
}

export interface LocationsSearch extends WorkspaceSearch {
  q?: string;
  sort?: LocationSort;
  /** Only the locations without coordinates (to place by hand). */
  without_coordinates?: true;
}

const flag = (value: unknown) => (value === true || value === 'true' ? true : undefined);

const signedOutSearch = (search: Record<string, unknown>): SignedOutSearch => ({
  redirect: text(search.redirect),
  expired: flag(search.expired),
  deleted: flag(search.deleted),
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: signedOutSearch,
  component: SignIn,
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-up',
  validateSearch: signedOutSearch,
  component: SignUp,
});

// The invitation mail's link is {APP_URL}/register/{token}; under the app it is this page.
const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'register/$token',
  component: lazyRouteComponent(() => import('./account/invite-sign-up.tsx'), 'InviteSignUp'),
});

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad({ location }) {
    if (!getSession()) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  component: AppShell,
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad() {
    throw redirect({ to: '/locations', search: {} });
  },
});

const locationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'locations',
  validateSearch: (search: Record<string, unknown>): LocationsSearch => ({
    workspace: id(search.workspace),
    q: text(search.q),
    sort: LOCATION_SORTS.includes(search.sort as LocationSort) ? (search.sort as LocationSort) : undefined,
    without_coordinates: flag(search.without_coordinates),
  }),
  component: lazyRouteComponent(() => import('./locations/locations-screen.tsx'), 'LocationsScreen'),
});

const locationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'locations/$locationId',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(
    () => import('./locations/editor/location-editor-screen.tsx'),
    'LocationEditorScreen',
  ),
});

const importRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'import',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./import/import-screen.tsx'), 'ImportScreen'),
});

const aiImportsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'ai-imports',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./ai-import/ai-imports-screen.tsx'), 'AiImportsScreen'),
});

const newAiImportRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'ai-imports/new',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./ai-import/new-ai-import.tsx'), 'NewAiImportScreen'),
});

const aiImportRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'ai-imports/$batchId',
  component: lazyRouteComponent(() => import('./ai-import/ai-import-screen.tsx'), 'AiImportScreen'),
});

const findersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'finders',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./finders/finders-screen.tsx'), 'FindersScreen'),
});

const finderRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'finders/$finderId',
  validateSearch: (search: Record<string, unknown>): { tab?: FinderTab } => ({
    tab: FINDER_TABS.includes(search.tab as FinderTab) ? (search.tab as FinderTab) : undefined,
  }),
  component: lazyRouteComponent(() => import('./finders/finder-screen.tsx'), 'FinderScreen'),
});

const organizeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'organize',
  validateSearch: (
    search: Record<string, unknown>,
  ): WorkspaceSearch & { tab?: OrganizeTab; calendar?: number } => ({
    workspace: id(search.workspace),
    tab: ORGANIZE_TABS.includes(search.tab as OrganizeTab) ? (search.tab as OrganizeTab) : undefined,
    // The holiday calendar open in its editor.
    calendar: id(search.calendar),
  }),
  component: lazyRouteComponent(() => import('./organize/organize-screen.tsx'), 'OrganizeScreen'),
});

const processesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'processes',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./processes/processes-screen.tsx'), 'ProcessesScreen'),
});

const workspacesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'workspaces',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./workspaces/workspaces-screen.tsx'), 'WorkspacesScreen'),
});

const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account',
  validateSearch: (search: Record<string, unknown>): { tab?: AccountTab } => ({
    tab: ACCOUNT_TABS.includes(search.tab as AccountTab) ? (search.tab as AccountTab) : undefined,
  }),
  component: lazyRouteComponent(() => import('./account/settings/account-screen.tsx'), 'AccountScreen'),
});

// Billing is the account's (GET /me), not a workspace's; the workspace only goes along in the
// address so the other screens keep showing it.
const billingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'billing',
  validateSearch: (search: Record<string, unknown>): WorkspaceSearch => ({ workspace: id(search.workspace) }),
  component: lazyRouteComponent(() => import('./billing/billing-screen.tsx'), 'BillingScreen'),
});

const adminRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'admin',
  validateSearch: (search: Record<string, unknown>): { tab?: AdminTab } => ({
    tab: ADMIN_TABS.includes(search.tab as AdminTab) ? (search.tab as AdminTab) : undefined,
  }),
  component: lazyRouteComponent(() => import('./admin/admin-screen.tsx'), 'AdminScreen'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  signUpRoute,
  inviteRoute,
  appRoute.addChildren([
    indexRoute,
    locationsRoute,
    locationRoute,
    importRoute,
    aiImportsRoute,
    newAiImportRoute,
    aiImportRoute,
    organizeRoute,
    findersRoute,
    finderRoute,
    processesRoute,
    workspacesRoute,
    accountRoute,
    billingRoute,
    adminRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  basepath: APP_BASE_PATH,
  defaultPreload: 'intent',
  defaultNotFoundComponent: NotFound,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

declare module '@tanstack/history' {
  interface HistoryState {
    /** The location editor just created this location: it says "Saved." as after any save. */
    createdLocation?: boolean;
  }
}

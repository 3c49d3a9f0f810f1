// Who a request acts for: the ground floor, since routes, services and repositories of every
// module pass it on (how it limits access is modules/workspaces/workspaces.access.ts).

/** The user a request acts for, and whether it acts across every workspace (the /admin routes). */
export interface Actor {
  userId: number;
  allWorkspaces: boolean;
}

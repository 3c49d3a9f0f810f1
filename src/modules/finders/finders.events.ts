// What the finders module tells the rest of the service after it changed a finder: the hook a
// cache of the widget payload (or anything else derived from a finder) plugs into. Called after
// the write has committed; a listener's failure is logged, never answered to the client.

export interface FinderChangeListener {
  /** The finder's row, locations, settings or integrations changed. */
  finderChanged(finderId: number): Promise<void>;
  /** The finder is gone; its public token is given since the row no longer exists. */
  finderDeleted(finderId: number, token: string): Promise<void>;
}

/** The default: nothing derived from finders is kept. */
export const noopFinderChangeListener: FinderChangeListener = {
  finderChanged: async () => {},
  finderDeleted: async () => {},
};

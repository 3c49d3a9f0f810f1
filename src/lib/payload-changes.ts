// What a write tells the finder payload cache (modules/finders/payload/finders.payload.cache.ts):
// which finders' widget payloads it may have changed. Writers get a listener injected from
// src/deps.ts and call it after their transaction commits, so a payload rebuilt on the news
// reads the write.
// Listeners never throw: a lost notice costs at most the cache's 60 s TTL, never a request.

/** Finder CRUD (settings, authorized_urls, own locations, integrations, delete) names the finder itself. */
export interface FinderChangeListener {
  /** The finder's row, locations, settings or integrations changed. */
  finderChanged(finderId: number): Promise<void>;
  /** The finder is gone; its public token is given since the row no longer exists. */
  finderDeleted(finderId: number, token: string): Promise<void>;
}

/**
 * Workspace content (locations, tags, sets, custom field definitions, imports) names its
 * workspace; a map's links name the map: every finder whose payload reads from it is stale.
 */
export interface PayloadChangeListener extends FinderChangeListener {
  workspaceChanged(workspaceId: number): Promise<void>;
  mapChanged(mapId: number): Promise<void>;
}

/** For services built without a cache (scripts, some tests). */
export const ignoreChanges: PayloadChangeListener = {
  finderChanged: async () => {},
  finderDeleted: async () => {},
  workspaceChanged: async () => {},
  mapChanged: async () => {},
};

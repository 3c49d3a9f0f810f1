// /tags (members of the workspace) and /admin/tags (role admin, every workspace).
import { namedResourceRoutes } from '../workspaces/named-resource.routes.ts';
import { tagSchema } from './tags.schemas.ts';

export const tagsRoutes = namedResourceRoutes({
  plural: 'tags',
  schema: tagSchema,
  service: (services) => services.tags,
  summaries: {
    list: 'Tags of the workspaces the user is a member of',
    get: 'One tag',
    create: 'Create a tag in a workspace; the slug is generated from the name',
    rename: 'Rename a tag; the slug is regenerated',
    delete: 'Delete a tag; it is removed from every location',
  },
});

// /sets (members of the workspace) and /admin/sets (role admin, every workspace).
import { namedResourceRoutes } from '../workspaces/named-resource.routes.ts';
import { setSchema } from './sets.schemas.ts';

export const setsRoutes = namedResourceRoutes({
  plural: 'sets',
  schema: setSchema,
  service: (services) => services.sets,
  summaries: {
    list: 'Sets of the workspaces the user is a member of',
    get: 'One set',
    create: 'Create a set in a workspace',
    rename: 'Rename a set',
    delete: 'Delete a set; its locations, maps and finders remain',
  },
});

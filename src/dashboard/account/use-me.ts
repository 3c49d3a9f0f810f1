// The signed-in user (GET /me) as every screen reads it: name, email, role, which second
// factors are on. Writes that answer the user put their answer here instead of asking again.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';

export type User = components['schemas']['User'];

export const ME_KEY = ['me'] as const;

export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => unwrap(await api.GET('/api/me')),
  });
}

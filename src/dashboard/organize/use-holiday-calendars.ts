// A workspace's holiday calendars as the Organize screen reads them: the list (small: a chain
// keeps one a country or region), and one by id for its editor.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';

export type HolidayCalendar = components['schemas']['HolidayCalendar'];

export const calendarKeys = {
  list: (workspaceId: number) => ['holiday-calendars', workspaceId] as const,
  one: (id: number) => ['holiday-calendars', 'one', id] as const,
};

/** One page of the largest size holds a workspace's calendars. */
const ALL = 1000;

export function useHolidayCalendars(workspaceId: number) {
  return useQuery({
    queryKey: calendarKeys.list(workspaceId),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/holiday-calendars', {
          params: { query: { workspace_id: workspaceId, limit: ALL } },
        }),
      ),
  });
}

export function useHolidayCalendar(id: number) {
  return useQuery({
    queryKey: calendarKeys.one(id),
    queryFn: async () => unwrap(await api.GET('/api/holiday-calendars/{id}', { params: { path: { id } } })),
  });
}

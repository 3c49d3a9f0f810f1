// A workspace's holiday calendars: named lists of special days (public holidays of a country,
// say) that apply to the locations and categories they are assigned to. The list with each
// calendar's counts, a form to add one (which then opens in its editor, the calendar's id in
// the address), and delete after a confirmation.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../api/client.ts';
import { t, tCount } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { HolidayCalendarEditor } from './holiday-calendar-editor.tsx';
import { calendarKeys, type HolidayCalendar, useHolidayCalendars } from './use-holiday-calendars.ts';

export function HolidayCalendarsPanel({
  workspaceId,
  calendarId,
}: {
  workspaceId: number;
  /** The calendar open in the editor, from the address. */
  calendarId: number | undefined;
}) {
  if (calendarId !== undefined)
    return <HolidayCalendarEditor key={calendarId} workspaceId={workspaceId} calendarId={calendarId} />;
  return <CalendarList workspaceId={workspaceId} />;
}

function CalendarList({ workspaceId }: { workspaceId: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: '/organize' });
  const calendars = useHolidayCalendars(workspaceId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: calendarKeys.list(workspaceId) });
  const create = useMutation({
    mutationFn: async (name: string) =>
      unwrap(
        await api.POST('/api/holiday-calendars', { body: { workspace_id: workspaceId, name, days: [] } }),
      ),
    onSuccess(calendar) {
      queryClient.setQueryData(calendarKeys.one(calendar.id), calendar);
      void refresh();
      void navigate({ search: (previous) => ({ ...previous, calendar: calendar.id }) });
    },
  });
  const remove = useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.DELETE('/api/holiday-calendars/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });

  return (
    <>
      <h2>{t('calendars.title')}</h2>
      <p>{t('calendars.intro')}</p>
      {calendars.error ? (
        <ErrorNotice error={calendars.error} onRetry={() => void calendars.refetch()} />
      ) : !calendars.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : calendars.data.length === 0 ? (
        <p className="empty">{t('calendars.empty')}</p>
      ) : (
        <ul className="named-list">
          {calendars.data.map((calendar) => (
            <li key={calendar.id}>
              <span className="named-name">
                {calendar.name}
                <span className="muted calendar-facts"> · {facts(calendar)}</span>
              </span>
              <Link
                className="button"
                from="/organize"
                to="/organize"
                search={(previous) => ({ ...previous, calendar: calendar.id })}
                aria-label={t('calendars.edit_named', { name: calendar.name })}
              >
                {t('calendars.edit')}
              </Link>
              <ConfirmButton
                trigger={t('organize.delete')}
                title={t('organize.delete_title', { name: calendar.name })}
                action={t('organize.delete')}
                onConfirm={() => remove.mutate(calendar.id)}
              >
                <p>{t('calendars.delete_confirm', { name: calendar.name })}</p>
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      {remove.error && <ErrorNotice error={remove.error} />}
      <Form
        label={t('calendars.add')}
        error={create.error}
        onSubmit={(form) => create.mutate(String(form.get('name')).trim())}
      >
        <Field name="name" label={t('calendars.name')} description={t('calendars.name_hint')} isRequired />
        <SubmitButton pending={create.isPending}>{t('calendars.add')}</SubmitButton>
      </Form>
    </>
  );
}

/** "3 special days, 2 locations, 1 category": what the calendar holds and reaches. */
const facts = (calendar: HolidayCalendar) =>
  [
    tCount('calendars.days', calendar.days.length),
    tCount('calendars.locations', calendar.location_ids.length),
    tCount('calendars.sets', calendar.set_ids.length),
  ].join(', ');

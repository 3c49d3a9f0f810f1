// One holiday calendar: its name, its days (the special days editor the location editor uses,
// under `days`), the categories and the locations it applies to (a location found by name,
// address or city), saved together in one PUT; delete after a confirmation. The days are
// checked by the service's own rules before sending; every error shows beside its control.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Checkbox } from 'react-aria-components/Checkbox';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { api, unwrap } from '../api/client.ts';
import { refusedBeforeSending } from '../api/errors.ts';
import { blankMessages } from '../hours/blank-messages.ts';
import { type SpecialDayDraft, specialBody, specialDrafts, specialProblems } from '../hours/hours-draft.ts';
import { SpecialDaysEditor } from '../hours/special-days-editor.tsx';
import { t, tCount } from '../i18n/i18n.ts';
import { LocationSearchBox, PickedLocationList } from '../locations/location-picks.tsx';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { useErrorsAt } from '../ui/errors-at.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { useSets } from '../workspaces/use-workspace-content.ts';
import { calendarKeys, type HolidayCalendar, useHolidayCalendar } from './use-holiday-calendars.ts';

export function HolidayCalendarEditor({
  workspaceId,
  calendarId,
}: {
  workspaceId: number;
  calendarId: number;
}) {
  const calendar = useHolidayCalendar(calendarId);
  return (
    <>
      <p>
        <Link from="/organize" to="/organize" search={(previous) => ({ ...previous, calendar: undefined })}>
          {t('calendars.back')}
        </Link>
      </p>
      {calendar.error ? (
        <ErrorNotice error={calendar.error} onRetry={() => void calendar.refetch()} />
      ) : !calendar.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <CalendarForm workspaceId={workspaceId} calendar={calendar.data} />
      )}
    </>
  );
}

interface CalendarValues {
  name: string;
  days: SpecialDayDraft[];
  setIds: string[];
  locationIds: number[];
}

const calendarValues = (calendar: HolidayCalendar): CalendarValues => ({
  name: calendar.name,
  days: specialDrafts(calendar.days),
  setIds: calendar.set_ids.map(String),
  locationIds: calendar.location_ids,
});

function CalendarForm({ workspaceId, calendar }: { workspaceId: number; calendar: HolidayCalendar }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: '/organize' });
  const sets = useSets(workspaceId);
  const [values, setValues] = useState(() => calendarValues(calendar));
  const set = <K extends keyof CalendarValues>(key: K, value: CalendarValues[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }));
  const refreshList = () => queryClient.invalidateQueries({ queryKey: calendarKeys.list(workspaceId) });

  const save = useMutation({
    mutationFn: async () => {
      const problems = specialProblems(values.days, 'days', blankMessages());
      if (Object.keys(problems).length > 0) throw refusedBeforeSending(problems);
      return unwrap(
        await api.PUT('/api/holiday-calendars/{id}', {
          params: { path: { id: calendar.id } },
          body: {
            name: values.name.trim(),
            days: specialBody(values.days),
            set_ids: values.setIds.map(Number),
            location_ids: values.locationIds,
          },
        }),
      );
    },
    onSuccess(saved) {
      queryClient.setQueryData(calendarKeys.one(saved.id), saved);
      // The form shows what was stored (the days sorted, labels trimmed).
      setValues(calendarValues(saved));
      void refreshList();
    },
  });
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.DELETE('/api/holiday-calendars/{id}', { params: { path: { id: calendar.id } } })),
    onSuccess() {
      queryClient.removeQueries({ queryKey: calendarKeys.one(calendar.id) });
      void refreshList();
      void navigate({ search: (previous) => ({ ...previous, calendar: undefined }) });
    },
  });
  const errors = useErrorsAt(save.error);
  const locationErrors = errors.at('location_ids');
  const chosen = new Set(values.locationIds);

  return (
    <>
      <h2>{calendar.name}</h2>
      <Form
        label={t('calendars.edit_named', { name: calendar.name })}
        error={save.error}
        onSubmit={() => save.mutate()}
      >
        <Field
          name="name"
          label={t('calendars.name')}
          isRequired
          value={values.name}
          onChange={(name) => set('name', name)}
        />
        <SpecialDaysEditor
          path="days"
          legend={t('calendars.days_legend')}
          hint={t('calendars.days_hint')}
          entries={values.days}
          onChange={(days) => set('days', days)}
          errors={errors}
        />
        <CheckboxGroup
          name="set_ids"
          className="field"
          value={values.setIds}
          onChange={(setIds) => set('setIds', setIds)}
        >
          <Label>{t('calendars.sets_label')}</Label>
          {sets.data?.length === 0 && <p className="muted">{t('location.sets_none')}</p>}
          {sets.data?.map((category) => (
            <Checkbox key={category.id} value={String(category.id)} className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
              {category.name}
            </Checkbox>
          ))}
          <FieldError className="field-error" />
        </CheckboxGroup>
        <fieldset className="fieldset">
          <legend>{t('calendars.locations_legend')}</legend>
          <p className="muted hint">{tCount('calendars.locations_count', values.locationIds.length)}</p>
          <PickedLocationList
            ids={values.locationIds}
            label={t('calendars.locations_legend')}
            empty={t('calendars.locations_none')}
            disabled={false}
            onRemove={(id) => {
              errors.edited('location_ids');
              set(
                'locationIds',
                values.locationIds.filter((other) => other !== id),
              );
            }}
          />
          <LocationSearchBox
            workspaceId={workspaceId}
            chosen={chosen}
            onPick={(location) => {
              errors.edited('location_ids');
              set('locationIds', [...values.locationIds, location.id]);
            }}
          />
          {locationErrors.length > 0 && <p className="field-error">{locationErrors.join(' ')}</p>}
        </fieldset>
        <SubmitButton pending={save.isPending}>{t('app.save')}</SubmitButton>
        {save.isSuccess && !save.isPending && (
          <p role="status" className="notice">
            {t('calendars.saved')}
          </p>
        )}
      </Form>
      <div className="actions">
        <ConfirmButton
          trigger={t('calendars.delete')}
          title={t('organize.delete_title', { name: calendar.name })}
          action={t('calendars.delete')}
          isDisabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        >
          <p>{t('calendars.delete_confirm', { name: calendar.name })}</p>
        </ConfirmButton>
      </div>
      {remove.error && <ErrorNotice error={remove.error} />}
    </>
  );
}

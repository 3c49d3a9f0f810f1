// One location, new or existing: every field, its tags (type-ahead, new ones created on save),
// its categories (sets), the workspace's custom fields by their type, its opening hours, its
// image, and delete with confirmation. The service's 422 messages appear beside their fields;
// the hours are checked by the service's own rules before sending. The position is typed or
// placed on a map (a click places the pin, dragging moves it; the fields follow).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { Checkbox } from 'react-aria-components/Checkbox';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { Label } from 'react-aria-components/Label';
import { api, unwrap } from '../../api/client.ts';
import { ApiError, refusedBeforeSending } from '../../api/errors.ts';
import { blankMessages } from '../../hours/blank-messages.ts';
import { openingProblems } from '../../hours/opening-draft.ts';
import { OpeningHoursSection } from '../../hours/opening-hours-section.tsx';
import { t } from '../../i18n/i18n.ts';
import { PinMap, typedPosition } from '../../map/map.tsx';
import { ConfirmButton } from '../../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../../ui/error-notice.tsx';
import { useErrorsAt } from '../../ui/errors-at.ts';
import { Field, Form, SubmitButton } from '../../ui/form.tsx';
import { ScreenState } from '../../ui/screen-state.tsx';
import { useCustomFields, useSets, useTags } from '../../workspaces/use-workspace-content.ts';
import { chosenWorkspace, useWorkspaces } from '../../workspaces/use-workspaces.ts';
import type { Location } from '../location-pages.ts';
import { ClosureFields } from './closure-fields.tsx';
import { CustomFieldInput } from './custom-field-input.tsx';
import { ImageField } from './image-field.tsx';
import { OWN_FIELDS, type OwnValues, ownBody, ownValues } from './location-fields.ts';
import { derivedZone, type OpeningValues, openingBody, openingValues } from './opening-fields.ts';
import { TagPicker } from './tag-picker.tsx';

export function LocationEditorScreen() {
  const { locationId } = useParams({ from: '/app/locations/$locationId' });
  const search = useSearch({ from: '/app/locations/$locationId' });
  const isNew = locationId === 'new';
  const location = useQuery({
    queryKey: ['location', Number(locationId)],
    enabled: !isNew,
    queryFn: async () =>
      unwrap(await api.GET('/api/locations/{id}', { params: { path: { id: Number(locationId) } } })),
  });
  const workspaces = useWorkspaces();

  const title = t('nav.locations');
  if (location.error)
    return <ScreenState title={title} error={location.error} onRetry={() => void location.refetch()} />;
  if (workspaces.error)
    return <ScreenState title={title} error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  const workspaceId = isNew
    ? workspaces.data && chosenWorkspace(workspaces.data, search.workspace)?.id
    : location.data?.workspace_id;
  if (workspaceId === undefined || (!isNew && !location.data)) return <ScreenState title={title} />;
  return (
    <LocationEditor key={location.data?.id ?? 'new'} location={location.data} workspaceId={workspaceId} />
  );
}

function LocationEditor({ location, workspaceId }: { location: Location | undefined; workspaceId: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Created a moment ago by this editor (a new one is mounted for the new address).
  const justCreated = useLocation({ select: (place) => place.state.createdLocation === true });
  const tags = useTags(workspaceId);
  const sets = useSets(workspaceId);
  const customFields = useCustomFields(workspaceId);
  const [own, setOwn] = useState<OwnValues>(() => ownValues(location));
  const pin = typedPosition(own.lat, own.lng);
  const [tagNames, setTagNames] = useState<string[]>(() => location?.tags.map((tag) => tag.name) ?? []);
  const [setIds, setSetIds] = useState<string[]>(() => location?.sets.map((set) => String(set.id)) ?? []);
  const [custom, setCustom] = useState<Record<string, unknown>>(() => ({
    ...(location?.custom_fields ?? {}),
  }));
  const [opening, setOpening] = useState<OpeningValues>(() => openingValues(location));

  const save = useMutation({
    mutationFn: async () => {
      const problems = openingProblems(opening, blankMessages());
      if (Object.keys(problems).length > 0) throw refusedBeforeSending(problems);
      const body = {
        ...ownBody(own),
        ...openingBody(opening),
        tags: tagNames,
        set_ids: setIds.map(Number),
        custom_fields: custom,
      };
      if (!location) {
        return unwrap(
          await api.POST('/api/locations', {
            body: { ...body, workspace_id: workspaceId, title: own.title.trim() },
          }),
        );
      }
      return unwrap(await api.PUT('/api/locations/{id}', { params: { path: { id: location.id } }, body }));
    },
    onSuccess(saved) {
      queryClient.setQueryData(['location', saved.id], saved);
      // The form shows what was stored (trimmed, normalised), and stays mounted so "Saved." shows.
      setOwn(ownValues(saved));
      setTagNames(saved.tags.map((tag) => tag.name));
      setSetIds(saved.sets.map((set) => String(set.id)));
      setCustom({ ...saved.custom_fields });
      setOpening(openingValues(saved));
      void queryClient.invalidateQueries({ queryKey: ['locations'] });
      // A pin placed (or an address changed) moves the count of locations waiting for one.
      void queryClient.invalidateQueries({ queryKey: ['geocoding'] });
      void queryClient.invalidateQueries({ queryKey: ['tags', workspaceId] });
      if (!location) {
        void navigate({
          to: '/locations/$locationId',
          params: { locationId: String(saved.id) },
          search: {},
          replace: true,
          state: { createdLocation: true },
        });
      }
    },
  });
  const remove = useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.DELETE('/api/locations/{id}', { params: { path: { id } } })),
    onSuccess() {
      void queryClient.invalidateQueries({ queryKey: ['locations'] });
      void queryClient.invalidateQueries({ queryKey: ['geocoding'] });
      void navigate({ to: '/locations', search: { workspace: workspaceId } });
    },
  });

  const errors = useErrorsAt(save.error);
  const fieldErrors = save.error instanceof ApiError ? save.error.fields : {};
  // The tags' own and each tag's (tags.2), until the tags are edited.
  const tagErrors = Object.keys(fieldErrors)
    .filter((path) => path === 'tags' || path.startsWith('tags.'))
    .flatMap((path) => errors.at(path));

  return (
    <>
      <p>
        <Link to="/locations" search={{ workspace: workspaceId }}>
          {t('location.back')}
        </Link>
      </p>
      <h1>{location ? location.title : t('location.new')}</h1>
      <div className="editor-grid">
        <Form
          label={location ? location.title : t('location.new')}
          error={save.error}
          onSubmit={() => save.mutate()}
        >
          {OWN_FIELDS.map((field) => (
            <Fragment key={field.key}>
              <Field
                name={field.key}
                label={t(field.label)}
                description={field.hint && t(field.hint)}
                type={field.type ?? 'text'}
                inputMode={field.type === 'number' ? 'decimal' : undefined}
                isRequired={field.required}
                value={own[field.key]}
                onChange={(value) => setOwn((previous) => ({ ...previous, [field.key]: value }))}
              />
              {field.key === 'lng' && (
                <PinMap
                  label={t('mapui.pin_label')}
                  hint={t('mapui.pin_hint')}
                  pin={pin}
                  onPin={(position) =>
                    setOwn((previous) => ({
                      ...previous,
                      lat: String(position.lat),
                      lng: String(position.lng),
                    }))
                  }
                />
              )}
            </Fragment>
          ))}
          <TagPicker
            names={tagNames}
            onChange={(names) => {
              setTagNames(names);
              errors.edited('tags');
            }}
            suggestions={tags.data?.map((tag) => tag.name) ?? []}
            errors={tagErrors}
          />
          <CheckboxGroup name="set_ids" className="field" value={setIds} onChange={setSetIds}>
            <Label>{t('location.sets')}</Label>
            {sets.data?.length === 0 && <p className="muted">{t('location.sets_none')}</p>}
            {sets.data?.map((set) => (
              <Checkbox key={set.id} value={String(set.id)} className="checkbox">
                <span className="checkbox-box" aria-hidden="true" />
                {set.name}
              </Checkbox>
            ))}
          </CheckboxGroup>
          {customFields.data && customFields.data.length > 0 && (
            <fieldset className="fieldset">
              <legend>{t('location.custom_fields')}</legend>
              {customFields.data.map((definition) => (
                <CustomFieldInput
                  key={definition.id}
                  definition={definition}
                  value={custom[definition.name]}
                  onChange={(value) => setCustom((previous) => ({ ...previous, [definition.name]: value }))}
                />
              ))}
            </fieldset>
          )}
          <OpeningHoursSection
            values={opening}
            onChange={setOpening}
            hasPosition={own.lat.trim() !== '' && own.lng.trim() !== ''}
            derivedZone={derivedZone(location, pin, own.country)}
            errors={errors}
          >
            <ClosureFields values={opening} onChange={setOpening} errors={errors} />
          </OpeningHoursSection>
          <SubmitButton pending={save.isPending}>{t('app.save')}</SubmitButton>
          {(save.isSuccess || justCreated) && !save.isPending && !save.isError && (
            <p role="status" className="notice">
              {t('location.saved')}
            </p>
          )}
        </Form>
        {location && (
          <aside className="editor-side">
            <ImageField location={location} />
            <ConfirmButton
              trigger={t('location.delete')}
              title={t('location.delete')}
              action={t('location.delete')}
              isDisabled={remove.isPending}
              onConfirm={() => remove.mutate(location.id)}
            >
              <p>{t('location.delete_confirm', { title: location.title })}</p>
            </ConfirmButton>
            {remove.error && <ErrorNotice error={remove.error} />}
          </aside>
        )}
      </div>
    </>
  );
}

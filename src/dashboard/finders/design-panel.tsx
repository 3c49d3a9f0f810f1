// The finder's name and design: every widget setting as a field, filled with what the widget
// reads today (its default where nothing is stored). Saving stores what differs from the
// defaults; a value the widget would not use is refused beside its field before anything is
// sent. The main colour shows the colour the widget will really use (darkened for contrast).
// The widget's first view (default centre and zoom) is typed or picked on a map; beside the
// form, the real widget previews the finder's current locations with the form's unsaved values.
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { Switch } from 'react-aria-components/Switch';
import { Text } from 'react-aria-components/Text';
import { TextField } from 'react-aria-components/TextField';
import { contrastRatio, ensureContrast } from '../../lib/color-contrast.ts';
import { ApiError } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';
import { typedPosition, type View, ViewMap } from '../map/map.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { FinderPreview } from './finder-preview.tsx';
import {
  centerParts,
  type FormValues,
  formValues,
  refusedCenterParts,
  SETTING_FIELDS,
  type SettingField,
  settingsFromForm,
} from './settings-fields.ts';
import { type Finder, useUpdateFinder } from './use-finders.ts';

export function DesignPanel({ finder }: { finder: Finder }) {
  const [values, setValues] = useState<FormValues>(() => formValues(finder.settings));
  const [refused, setRefused] = useState<string[]>([]);
  const update = useUpdateFinder(finder.id);
  // An edit takes the field's refusal away at once, so nothing moves under the pointer on blur.
  const set = (key: string, value: string | boolean) => {
    setValues((previous) => ({ ...previous, [key]: value }));
    setRefused((previous) => previous.filter((refusedKey) => refusedKey !== key));
  };

  // A refused centre is shown beside the part (latitude, longitude) the widget cannot read.
  const refusedNames = refused.flatMap((key) =>
    key === 'default_center' ? refusedCenterParts(String(values[key] ?? '')) : [key],
  );
  const refusedErrors = Object.fromEntries(refusedNames.map((name) => [name, [t('design.refused')]]));
  const error =
    refused.length > 0
      ? new ApiError(422, 'validation_failed', t('error.form'), { ...refusedErrors })
      : update.error;

  return (
    <div className="design-layout">
      <Form
        label={t('finder.tab.design')}
        error={error}
        onSubmit={(form) => {
          const { settings, refused: keys } = settingsFromForm(values, finder.settings);
          setRefused(keys);
          if (keys.length > 0) return;
          update.mutate({ name: String(form.get('name')).trim(), settings });
        }}
      >
        <Field name="name" label={t('finder.rename')} defaultValue={finder.name} isRequired />
        {SETTING_FIELDS.map((field) =>
          field.key === 'default_zoom' ? null : field.kind === 'center' ? (
            <DefaultViewFields
              key={field.key}
              center={String(values.default_center ?? '')}
              zoom={String(values.default_zoom ?? '')}
              onCenter={(value) => set('default_center', value)}
              onZoom={(value) => set('default_zoom', value)}
            />
          ) : (
            <SettingInput
              key={field.key}
              field={field}
              value={values[field.key]}
              onChange={(value) => set(field.key, value)}
            />
          ),
        )}
        <SubmitButton pending={update.isPending}>{t('app.save')}</SubmitButton>
        {update.isSuccess && !update.isPending && (
          <p role="status" className="notice">
            {t('finder.saved')}
          </p>
        )}
      </Form>
      <FinderPreview finder={finder} settings={settingsFromForm(values, finder.settings).settings} />
    </div>
  );
}

/**
 * The widget's first view: its centre as two numbers and its zoom, typed, or taken from a map
 * panned and zoomed to it ("Use this view"). The map shows the typed view when it is one.
 */
function DefaultViewFields(props: {
  center: string;
  zoom: string;
  onCenter: (value: string) => void;
  onZoom: (value: string) => void;
}) {
  const [seen, setSeen] = useState<View | null>(null);
  // Said once the view is taken, since three fields change at once out of the user's sight.
  const [used, setUsed] = useState<View | null>(null);
  const parts = centerParts(props.center);
  const typedCenter = typedPosition(parts.lat, parts.lng);
  const typedZoom = Number(props.zoom);
  const view =
    typedCenter &&
    props.zoom.trim() !== '' &&
    Number.isInteger(typedZoom) &&
    typedZoom >= 0 &&
    typedZoom <= 19
      ? { center: typedCenter, zoom: typedZoom }
      : null;
  const part = (name: 'lat' | 'lng', value: string) => {
    const next = { ...parts, [name]: value };
    props.onCenter(next.lat.trim() === '' && next.lng.trim() === '' ? '' : `${next.lat},${next.lng}`);
  };
  return (
    <fieldset className="fieldset">
      <legend>{t('mapui.default_center')}</legend>
      <ViewMap label={t('mapui.view_label')} hint={t('mapui.view_hint')} view={view} onMove={setSeen} />
      <Button
        className="button"
        isDisabled={!seen}
        onPress={() => {
          if (!seen) return;
          props.onCenter(`${seen.center.lat},${seen.center.lng}`);
          props.onZoom(String(seen.zoom));
          setUsed(seen);
        }}
      >
        {t('mapui.use_view')}
      </Button>
      <p role="status" className="muted">
        {used && t('mapui.view_used', { lat: used.center.lat, lng: used.center.lng, zoom: used.zoom })}
      </p>
      <Field
        name="default_center.lat"
        label={t('mapui.default_center_lat')}
        description={t('mapui.default_center_hint')}
        type="number"
        inputMode="decimal"
        value={parts.lat}
        onChange={(value) => part('lat', value)}
      />
      <Field
        name="default_center.lng"
        label={t('mapui.default_center_lng')}
        type="number"
        inputMode="decimal"
        value={parts.lng}
        onChange={(value) => part('lng', value)}
      />
      <Field
        name="default_zoom"
        label={t('mapui.default_zoom')}
        description={t('mapui.default_zoom_hint')}
        type="number"
        inputMode="numeric"
        value={props.zoom}
        onChange={props.onZoom}
      />
    </fieldset>
  );
}

function SettingInput({
  field,
  value,
  onChange,
}: {
  field: SettingField;
  value: string | boolean | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const label = t(field.label);
  const description = field.hint && t(field.hint);
  if (field.kind === 'switch') {
    return (
      <Switch name={field.key} className="switch" isSelected={value === true} onChange={onChange}>
        <span className="switch-track" aria-hidden="true" />
        {label}
      </Switch>
    );
  }
  if (field.kind === 'select') {
    return (
      <SelectField
        name={field.key}
        label={label}
        value={String(value)}
        onChange={onChange}
        options={(field.options ?? []).map((option) => ({ value: option.value, label: t(option.label) }))}
      />
    );
  }
  if (field.kind === 'color')
    return (
      <ColorInput
        name={field.key}
        label={label}
        description={description}
        value={String(value)}
        onChange={onChange}
      />
    );
  return (
    <Field
      name={field.key}
      label={label}
      description={description}
      type={field.kind === 'number' ? 'number' : 'text'}
      value={String(value ?? '')}
      onChange={onChange}
    />
  );
}

function ColorInput(props: {
  name: string;
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const valid = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(props.value.trim());
  const shown = valid ? ensureContrast(expand(props.value.trim().toLowerCase())) : undefined;
  return (
    <div className="color-field">
      <TextField name={props.name} value={props.value} onChange={props.onChange} className="field">
        <Label>{props.label}</Label>
        <div className="color-row">
          <Input />
          <input
            type="color"
            aria-label={props.label}
            value={valid ? expand(props.value.trim().toLowerCase()) : '#000000'}
            onChange={(event) => props.onChange(event.target.value)}
          />
        </div>
        {props.description && <Text slot="description">{props.description}</Text>}
      </TextField>
      {shown && (
        <p className="color-shown">
          <span className="swatch" aria-hidden="true" style={{ background: shown }} />
          {t('design.primary_color_shown', {
            color: shown,
            ratio: contrastRatio(shown, '#ffffff').toFixed(1),
          })}
        </p>
      )}
    </div>
  );
}

const expand = (hex: string) =>
  hex.length === 4 ? `#${[...hex.slice(1)].map((digit) => digit + digit).join('')}` : hex;

// A location's temporary closure, the part of its opening hours an AI import item does not
// have: closed for now and, optionally, the date it reopens (its error beside it).
import { Checkbox } from 'react-aria-components/Checkbox';
import { t } from '../../i18n/i18n.ts';
import type { ErrorsAt } from '../../ui/errors-at.ts';
import { Field } from '../../ui/form.tsx';
import type { OpeningValues } from './opening-fields.ts';

interface ClosureFieldsProps {
  values: OpeningValues;
  onChange: (values: OpeningValues) => void;
  errors: ErrorsAt;
}

export function ClosureFields({ values, onChange, errors }: ClosureFieldsProps) {
  return (
    <fieldset className="fieldset">
      <legend>{t('hours.closure')}</legend>
      <Checkbox
        className="checkbox"
        isSelected={values.closed}
        onChange={(closed) => {
          errors.edited('reopens_on');
          onChange({ ...values, closed });
        }}
      >
        <span className="checkbox-box" aria-hidden="true" />
        {t('hours.closed_now')}
      </Checkbox>
      {values.closed && (
        <Field
          className="date-field"
          label={t('hours.reopens_on')}
          type="date"
          value={values.reopensOn}
          onChange={(reopensOn) => {
            errors.edited('reopens_on');
            onChange({ ...values, reopensOn });
          }}
          errors={errors.at('reopens_on')}
        />
      )}
    </fieldset>
  );
}

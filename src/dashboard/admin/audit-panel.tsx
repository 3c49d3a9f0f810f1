// The audit log (GET /admin/audit-logs): every state-changing request, newest first, a page at
// a time, filtered by user, time range, method and status. The filters go to the service as
// typed; what it refuses (a date it cannot read, `to` before `from`) shows beside its field.
import { useState } from 'react';
import { api, withTotal } from '../api/client.ts';
import { isValidationError } from '../api/errors.ts';
import type { components, operations } from '../api/schema.gen.ts';
import { formatDateTime, t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { PagedTable, usePagedList } from './paged-table.tsx';

type AuditLog = components['schemas']['AuditLog'];
type AuditQuery = NonNullable<operations['listAdminAuditLogs']['parameters']['query']>;

const FILTERS = ['user_id', 'from', 'to', 'status'] as const;
const METHODS = ['', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number] | 'method', string>>;

export function AuditPanel() {
  const [filters, setFilters] = useState<Filters>({});
  const [method, setMethod] = useState('');
  const list = usePagedList(['admin', 'audit-logs'], filters, async (page, chosen) =>
    withTotal(
      // The values go as typed: the service reads them and names any it refuses.
      await api.GET('/api/admin/audit-logs', { params: { query: { ...page, ...chosen } as AuditQuery } }),
    ),
  );
  return (
    <>
      <h2>{t('admin.audit.title')}</h2>
      <Form
        label={t('admin.audit.filter')}
        error={isValidationError(list.query.error) ? list.query.error : null}
        onSubmit={(values) => {
          const chosen: Filters = {};
          for (const name of FILTERS) {
            const value = String(values.get(name) ?? '').trim();
            if (value !== '') chosen[name] = value;
          }
          if (method !== '') chosen.method = method;
          setFilters(chosen);
        }}
      >
        <div className="filter-fields">
          <Field name="user_id" label={t('admin.audit.user_id')} inputMode="numeric" />
          <Field name="from" label={t('admin.audit.from')} description={t('admin.audit.date_hint')} />
          <Field name="to" label={t('admin.audit.to')} description={t('admin.audit.to_hint')} />
          <SelectField
            name="method"
            label={t('admin.audit.method')}
            value={method}
            onChange={setMethod}
            options={METHODS.map((value) => ({ value, label: value === '' ? t('admin.audit.any') : value }))}
          />
          <Field name="status" label={t('admin.audit.status')} inputMode="numeric" />
        </div>
        <div className="form-actions">
          <SubmitButton pending={list.query.isFetching} pendingLabel={t('app.loading')}>
            {t('admin.audit.apply')}
          </SubmitButton>
        </div>
      </Form>
      <PagedTable<AuditLog>
        label={t('admin.audit.title')}
        list={list}
        empty={t('admin.audit.what')}
        hideError={isValidationError}
        head={
          <tr>
            <th scope="col">{t('admin.audit.col.when')}</th>
            <th scope="col">{t('admin.audit.user_id')}</th>
            <th scope="col">{t('admin.audit.col.request')}</th>
            <th scope="col">{t('admin.audit.status')}</th>
            <th scope="col">{t('admin.audit.col.ip')}</th>
          </tr>
        }
        row={(entry) => (
          <tr key={entry.id}>
            <th scope="row">
              <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
            </th>
            <td>{entry.user_id ?? t('admin.none')}</td>
            <td>
              <code>
                {entry.method} {entry.path}
              </code>
            </td>
            <td>{entry.status}</td>
            <td>{entry.ip ?? t('admin.none')}</td>
          </tr>
        )}
      />
    </>
  );
}
